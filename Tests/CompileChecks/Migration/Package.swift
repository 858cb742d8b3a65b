// swift-tools-version:6.2
import Foundation
import PackageDescription

// The compile-fail harness of the migration guide, run by .ci/reply-form-check; not part of the
// NetworkLayer package.
//
// `StillCompiles` is the positive side: calls that compile today, the guide's "after" forms and the
// valid calls beside each unavailable stub, built with warnings as errors. `Cases/` (outside `Sources`,
// so SwiftPM leaves it alone) holds one file per removed or untyped form, the guide's "before" forms;
// the script type-checks each against the module this build made, and each must fail with the error its
// `// expect:` line names and no other.

// The NetworkLayer package is the checkout three folders up. SwiftPM names a path dependency after its
// folder, whatever the checkout is called, so the product's package name is looked up.
let root = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../../..")
    .standardizedFileURL

let package = Package(
    name: "Migration",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8)],
    dependencies: [.package(path: "../../..")],
    targets: [
        .target(
            name: "StillCompiles",
            dependencies: [.product(name: "NetworkLayer", package: root.lastPathComponent)],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
        )
    ],
    swiftLanguageModes: [.v6]
)
