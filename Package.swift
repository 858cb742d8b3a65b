// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "NetworkLayer",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "NetworkLayer", targets: ["NetworkLayer"]),
        .library(name: "NetworkTestSupport", targets: ["NetworkTestSupport"]),
        .library(name: "NetworkInspector", targets: ["NetworkInspector"]),
        .executable(name: "Example", targets: ["Example"]),
        .executable(name: "NetworkBenchmarks", targets: ["NetworkBenchmarks"]),
    ],
    targets: [
        .target(name: "NetworkLayer", path: "Sources/NetworkLayer"),
        // The HTTP/1.1 server on 127.0.0.1 that MockServer and the inspector share; no product, no public API.
        .target(name: "LoopbackHTTP", path: "Sources/LoopbackHTTP"),
        .target(
            name: "NetworkTestSupport",
            dependencies: ["NetworkLayer", "LoopbackHTTP"],
            path: "TestSupport/NetworkTestSupport"
        ),
        .target(
            name: "NetworkInspector", dependencies: ["NetworkLayer", "LoopbackHTTP"],
            path: "Sources/NetworkInspector"),
        .executableTarget(
            name: "Example",
            dependencies: ["NetworkLayer", "NetworkTestSupport"],
            path: "Sources/Example"
        ),
        .executableTarget(
            name: "NetworkBenchmarks",
            dependencies: ["NetworkLayer", "NetworkTestSupport", "NetworkInspector"],
            path: "Sources/NetworkBenchmarks",
            exclude: ["nginx"]
        ),
        // A child process the crash tests start and kill; no product, so no app sees it.
        .executableTarget(
            name: "NetworkCrashHarness",
            dependencies: ["NetworkLayer"],
            path: "Sources/NetworkCrashHarness"
        ),
        .testTarget(
            name: "NetworkBenchmarksTests",
            dependencies: ["NetworkBenchmarks"],
            path: "Tests/NetworkBenchmarksTests"
        ),
        .target(
            name: "TestKit",
            dependencies: ["NetworkLayer"],
            path: "Tests/TestKit"
        ),
        .testTarget(
            name: "NetworkLayerTests",
            dependencies: ["NetworkLayer", "NetworkTestSupport", "TestKit"],
            path: "Tests/NetworkLayerTests"
        ),
        .testTarget(
            name: "NetworkTestSupportTests",
            dependencies: ["NetworkLayer", "NetworkTestSupport"],
            path: "Tests/NetworkTestSupportTests"
        ),
        .testTarget(
            name: "ConsumerTests",
            dependencies: ["NetworkLayer", "NetworkTestSupport", "NetworkInspector"],
            path: "Tests/ConsumerTests",
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["NetworkLayer", "NetworkTestSupport", "TestKit"],
            path: "Tests/EndToEndTests"
        ),
        .testTarget(
            name: "NetworkInspectorTests",
            dependencies: ["NetworkInspector", "NetworkLayer", "NetworkTestSupport", "LoopbackHTTP"],
            path: "Tests/NetworkInspectorTests"
        ),
        .testTarget(
            name: "MockServerTests",
            dependencies: ["NetworkTestSupport", "LoopbackHTTP"],
            path: "Tests/MockServerTests"
        ),
        // An app target as Xcode 26 creates one: everything is MainActor unless marked otherwise.
        .testTarget(
            name: "MainActorDefaultTests",
            dependencies: ["NetworkLayer", "NetworkTestSupport"],
            path: "Tests/MainActorDefaultTests",
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
    ],
    swiftLanguageModes: [.v6]
)
