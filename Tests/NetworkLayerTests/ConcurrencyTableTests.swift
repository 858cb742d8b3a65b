import Foundation
import XCTest

/// The table of where code runs (the "Errors and threading" article's) is checked against the code: a
/// queue or a timer added without a row fails here.
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

    /// `source` without its comments, so a queue named in a doc comment is not one made.
    private func code(_ source: String) -> String {
        source.split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line) }
            .joined(separator: "\n")
    }

    /// The arguments of each call that starts where `opening` (which ends with its parenthesis) occurs.
    private func arguments(of opening: String, in code: String) -> [String] {
        var found: [String] = []
        var rest = code[...]
        while let range = rest.range(of: opening) {
            var depth = 1
            var end = range.upperBound
            while end < rest.endIndex, depth > 0 {
                if rest[end] == "(" { depth += 1 } else if rest[end] == ")" { depth -= 1 }
                end = rest.index(after: end)
            }
            found.append(String(rest[range.upperBound..<end]))
            rest = rest[end...]
        }
        return found
    }

    /// Every queue the library makes has a row: a root is made in `Queues.swift`, any other queue
    /// targets a queue (so it adds no execution context) and names itself in the table, the clock's file
    /// alone makes a timer (and the queue it runs on), and nothing else starts a thread or names a global
    /// queue.
    func testEveryQueueTheLibraryMakesHasARow() throws {
        let table = try text(Self.article)
        let roots = "Sources/NetworkLayer/Core/Support/Queues.swift"
        let sources = try librarySources().map { (path: $0.path, code: code($0.text)) }
        // .ci/clock-check names the same file: no timer, and no real time, outside the clock.
        let clocks = sources.filter { $0.code.contains("makeTimerSource") || $0.code.contains("asyncAfter") }
            .map(\.path)
        XCTAssertEqual(
            clocks, ["Sources/NetworkLayer/Core/Support/SystemClock.swift"], "one clock keeps every timer")
        XCTAssertTrue(table.contains("| the clock's timer "), "the clock's timer has its row")
        let literal = try NSRegularExpression(pattern: #"label:\s*"([^"]+)""#)
        var labels: [String] = []
        for (path, code) in sources {
            for call in arguments(of: "DispatchQueue(", in: code) {
                let range = NSRange(call.startIndex..., in: call)
                guard let match = literal.firstMatch(in: call, range: range) else {
                    XCTAssertEqual(
                        [path], clocks, "\(path): a queue without a literal label, outside the clock: \(call)"
                    )
                    continue
                }
                let label = (call as NSString).substring(with: match.range(at: 1))
                labels.append(label)
                XCTAssertTrue(
                    table.contains("`\(label)`"), "\(path): queue \(label) has no row in the article's table")
                if path != roots {
                    XCTAssertTrue(
                        call.contains("target:"), "\(path): queue \(label) is a root: make it in Queues.swift"
                    )
                }
            }
            if path != roots {
                XCTAssertNil(
                    code.range(of: #"\.global\("#, options: .regularExpression),
                    "\(path) names a global queue")
            }
            for maker in [
                #"\bOperationQueue\s*\("#, #"\bThread\s*[({]"#, "detachNewThread", "pthread_create",
            ] {
                XCTAssertNil(
                    code.range(of: maker, options: .regularExpression),
                    "\(path) makes a thread or a queue (\(maker)) outside the tree")
            }
        }
        XCTAssertGreaterThanOrEqual(labels.count, 9, "the search found the queues: \(labels)")
    }

    func testTheTableListsEveryPlace() throws {
        let rows = places(in: try text(Self.article), prefix: "")
        XCTAssertGreaterThanOrEqual(rows.count, 10, "\(rows)")
        XCTAssertTrue(rows.contains("libcurl's thread"), "\(rows)")
    }

    private static let article = "Sources/NetworkLayer/NetworkLayer.docc/ErrorsAndThreading.md"
}
