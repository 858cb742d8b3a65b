// swift-tools-version:6.2
import Foundation
import PackageDescription

// A compile-fail check, run by .ci/reply-form-check; not part of the NetworkLayer package.
//
// One target with an unannotated `let created = try await network.post(...)`. Before issue 19 it built
// cleanly and `created` was `Void`: the reply was dropped. Now the only form it can reach is unavailable,
// so it must fail to build, asking for the reply's type and naming `postIgnoringReply`.

// The NetworkLayer package is the checkout three folders up. SwiftPM names a path dependency after its
// folder, whatever the checkout is called, so the product's package name is looked up.
let root = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../../..")
    .standardizedFileURL
let networkLayer = Target.Dependency.product(name: "NetworkLayer", package: root.lastPathComponent)

let package = Package(
    name: "UnannotatedReply",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8)],
    dependencies: [.package(path: "../../..")],
    targets: [
        .target(
            name: "UnannotatedPost",
            dependencies: [networkLayer],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
        )
    ],
    swiftLanguageModes: [.v6]
)
