import Foundation
import XCTest

/// The table of where code runs (`ConcurrencyModel.swift`) is checked against the code: a queue or a
/// timer added without a row fails here, and the article's copy keeps the same rows.
final class ConcurrencyTableTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func text(_ path: String) throws -> String {
        try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every library source file, relative path and text.
    private func librarySources() throws -> [(path: String, text: String)] {
        let folder = Self.root.appendingPathComponent("Sources/NetworkLayer")
        let files =
            FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        return try files.map { url in
            (
                url.path.replacingOccurrences(of: Self.root.path + "/", with: ""),
                try String(contentsOf: url, encoding: .utf8)
            )
        }
    }

    /// The place (first column, without its parenthesis or code marks) of each row of the table that
    /// follows the `| place |` header in `text`, each line `prefix` stripped.
    private func places(in text: String, prefix: String) -> [String] {
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let header = lines.firstIndex(where: { $0.hasPrefix(prefix + "| place |") }) else { return [] }
        return lines[(header + 2)...].prefix { $0.hasPrefix(prefix + "| ") }.map { line in
            line.dropFirst(prefix.count + 2).prefix { $0 != "(" && $0 != "|" }
                .replacingOccurrences(of: "`", with: "").trimmingCharacters(in: .whitespaces)
        }
    }

    func testEveryQueueTheLibraryMakesHasARow() throws {
        let table = try text("Sources/NetworkLayer/Core/Support/ConcurrencyModel.swift")
        let label = try NSRegularExpression(pattern: #"label: "([^"]+)""#)
        var labels: [String] = []
        for (path, source) in try librarySources() {
            for line in source.split(separator: "\n")
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                let line = String(line)
                for match in label.matches(in: line, range: NSRange(line.startIndex..., in: line)) {
                    let name = (line as NSString).substring(with: match.range(at: 1))
                    labels.append(name)
                    XCTAssertTrue(
                        table.contains("`\(name)`"), "\(path): queue \(name) has no row in ConcurrencyModel")
                }
            }
            // A timer is kept by the clock, whose timer queues have their row (.ci/clock-check too).
            if source.contains("makeTimerSource") || source.contains("asyncAfter") {
                XCTAssertEqual(
                    path, "Sources/NetworkLayer/Core/Support/SystemClock.swift", "a timer outside the clock")
            }
            if source.contains("DispatchQueue.global(") {
                XCTAssertTrue(
                    table.contains("| a global queue |"), "\(path) uses a global queue: it needs its row")
            }
        }
        XCTAssertGreaterThanOrEqual(labels.count, 8, "the search found the queues: \(labels)")
    }

    func testTheArticleHasTheSameRows() throws {
        let code = places(
            in: try text("Sources/NetworkLayer/Core/Support/ConcurrencyModel.swift"), prefix: "/// ")
        let article = places(
            in: try text("Sources/NetworkLayer/NetworkLayer.docc/ErrorsAndThreading.md"), prefix: "")
        XCTAssertGreaterThanOrEqual(code.count, 10, "\(code)")
        XCTAssertEqual(
            article, code, "the article's table and ConcurrencyModel's list the same places, in order")
    }
}
