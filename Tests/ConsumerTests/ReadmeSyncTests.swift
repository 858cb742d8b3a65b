import Foundation
import XCTest

/// Every Swift sample in the README must appear, line for line, in one compiled file of this target or
/// of MainActorDefaultTests (for samples that need a MainActor-default module), so the README cannot
/// drift from code that compiles.
final class ReadmeSyncTests: XCTestCase {
    private let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// The test targets whose sources the README's samples are looked up in; both are declared in
    /// Package.swift, so their files compile.
    private static let sampleFolders = ["ConsumerTests", "MainActorDefaultTests"]

    func testEverySwiftSampleInTheREADMECompilesInATestTarget() throws {
        let readme = try String(
            contentsOf: folder.appendingPathComponent("../../README.md").standardizedFileURL, encoding: .utf8)
        var compiledFiles: [[String]] = []
        for name in Self.sampleFolders {
            let target = folder.appendingPathComponent("../\(name)").standardizedFileURL
            let files = try FileManager.default.contentsOfDirectory(atPath: target.path)
                .filter { $0.hasSuffix(".swift") && $0 != "ReadmeSyncTests.swift" }
            XCTAssertFalse(files.isEmpty, "no sources in Tests/\(name)")
            compiledFiles += try files.map {
                Self.significantLines(
                    try String(contentsOf: target.appendingPathComponent($0), encoding: .utf8))
            }
        }
        let samples = Self.swiftBlocks(in: readme).filter { !Self.isManifestSnippet($0) }
        XCTAssertFalse(samples.isEmpty)
        for sample in samples {
            let lines = Self.significantLines(sample)
            XCTAssertTrue(
                compiledFiles.contains { Self.contains($0, lines) },
                "README sample not found in one file of Tests/ConsumerTests or Tests/MainActorDefaultTests:\n"
                    + sample)
        }
    }

    private static func swiftBlocks(in markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.hasPrefix("```swift") {
                current = []
            } else if current != nil, line.hasPrefix("```") {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// Package manifest lines belong to the consumer's `Package.swift`, not to this target.
    private static func isManifestSnippet(_ block: String) -> Bool {
        block.contains(".package(") || block.contains(".target(") || block.contains(".testTarget(")
    }

    private static func significantLines(_ text: String) -> [String] {
        text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter {
            !$0.isEmpty && !$0.hasPrefix("import ")
        }
    }

    private static func contains(_ haystack: [String], _ needle: [String]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return needle.isEmpty }
        return (0...(haystack.count - needle.count)).contains {
            Array(haystack[$0..<($0 + needle.count)]) == needle
        }
    }
}
