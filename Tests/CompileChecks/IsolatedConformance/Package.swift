// swift-tools-version:6.2
import Foundation
import PackageDescription

// A compile-fail check, run by .ci/compile-fail-check; not part of the NetworkLayer package.
//
// Two targets built as a new Xcode 26 app target is, with `.defaultIsolation(MainActor.self)`, that
// differ in one word: IsolatedItem passes a `struct Item: Codable` to `networkLayer.get` and must not
// compile, because its conformance is main-actor-isolated and the layer decodes off the main actor;
// NonisolatedItem declares the same struct `nonisolated` and must compile, which shows that the failure
// is about isolation and not a broken setup.

// The NetworkLayer package is the checkout three folders up. SwiftPM names a path dependency after its
// folder, whatever the checkout is called, so the product's package name is looked up.
let root = URL(fileURLWithPath: Context.packageDirectory).appendingPathComponent("../../..")
    .standardizedFileURL
let networkLayer = Target.Dependency.product(name: "NetworkLayer", package: root.lastPathComponent)
let mainActorByDefault: [SwiftSetting] = [.defaultIsolation(MainActor.self)]

let package = Package(
    name: "IsolatedConformance",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8)],
    dependencies: [.package(path: "../../..")],
    targets: [
        .target(
            name: "IsolatedItem",
            dependencies: [networkLayer],
            swiftSettings: mainActorByDefault
        ),
        .target(
            name: "NonisolatedItem",
            dependencies: [networkLayer],
            swiftSettings: mainActorByDefault
        ),
        // The same pair for a stored closure the layer calls later: BearerTokenAuthenticator's refresh.
        .target(
            name: "IsolatedRefresh",
            dependencies: [networkLayer],
            swiftSettings: mainActorByDefault
        ),
        .target(
            name: "NonisolatedRefresh",
            dependencies: [networkLayer],
            swiftSettings: mainActorByDefault
        ),
    ],
    swiftLanguageModes: [.v6]
)
