import Foundation
import XCTest

/// Every Swift sample in the README and in the DocC articles (the `.md` files of every `.docc` catalog
/// under Sources and TestSupport) must appear, line for line, in one compiled file of this target or of
/// MainActorDefaultTests (for samples that need a MainActor-default module), so the documentation cannot
/// drift from code that compiles. Samples written for an article live in `DocSnippets/`, a file per
/// article; a sample may also be part of any other file of these targets. A block whose first line is
/// `// Declarations` is not a sample but the signatures the samples call: DeclarationSyncTests checks those.
final class ReadmeSyncTests: XCTestCase {
    private static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    private static let packageRoot = DocumentationFiles.packageRoot

    /// The test targets whose sources the samples are looked up in; both are declared in Package.swift,
    /// so their files compile.
    private static let sampleFolders = ["ConsumerTests", "MainActorDefaultTests"]
    func testEverySwiftSampleInTheREADMECompilesInATestTarget() throws {
        let readme = Self.packageRoot.appendingPathComponent("README.md")
        let samples = try Self.samples(in: readme)
        XCTAssertFalse(samples.isEmpty)
        try assertCompiled(samples, from: readme)
    }

    func testEverySwiftSampleInTheDocCArticlesCompilesInATestTarget() throws {
        let articles = DocumentationFiles.articles
        // Every catalog has articles with samples.
        let catalogs = Set(articles.compactMap { $0.pathComponents.first { $0.hasSuffix(".docc") } })
        XCTAssertEqual(catalogs, ["NetworkLayer.docc", "NetworkTestSupport.docc", "NetworkInspector.docc"])
        var sampleCount = 0
        for article in articles {
            let samples = try Self.samples(in: article)
            sampleCount += samples.count
            try assertCompiled(samples, from: article)
        }
        XCTAssertGreaterThan(sampleCount, 10)
    }

    private func assertCompiled(_ samples: [String], from document: URL) throws {
        let compiled = try Self.compiledFiles()
        let name = DocumentationFiles.relativePath(document)
        for sample in samples {
            let lines = Self.significantLines(sample)
            XCTAssertTrue(
                compiled.contains { Self.contains($0, lines) },
                "A Swift sample in \(name) is not found in one file of Tests/ConsumerTests (put it in "
                    + "Tests/ConsumerTests/DocSnippets/) or Tests/MainActorDefaultTests:\n" + sample)
        }
    }

    /// The significant lines of every Swift file of the sample folders, this file excepted.
    private static func compiledFiles() throws -> [[String]] {
        var compiled: [[String]] = []
        for name in sampleFolders {
            let target = folder.appendingPathComponent("../\(name)").standardizedFileURL
            let files = DocumentationFiles.files(under: target) {
                $0.pathExtension == "swift" && $0.lastPathComponent != "ReadmeSyncTests.swift"
            }
            XCTAssertFalse(files.isEmpty, "no sources in Tests/\(name)")
            compiled += try files.map { significantLines(try String(contentsOf: $0, encoding: .utf8)) }
        }
        return compiled
    }

    /// The ```swift blocks of a Markdown file, but manifest lines, which belong to the consumer's
    /// `Package.swift`, not to this target, and declarations blocks, which are the library's, not samples.
    private static func samples(in markdown: URL) throws -> [String] {
        DocumentationFiles.swiftBlocks(in: try String(contentsOf: markdown, encoding: .utf8)).filter {
            DocumentationFiles.isSample($0)
        }
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
