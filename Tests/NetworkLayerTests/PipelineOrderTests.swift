import Foundation
import XCTest

@testable import NetworkLayer

/// The articles' stage lists are checked against the one list in the code (``PipelineStage``): a stage
/// added, removed or moved in the code without its prose fails here.
final class PipelineOrderTests: XCTestCase {
    private static let catalog = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/NetworkLayer/NetworkLayer.docc")

    private func lines(of article: String) throws -> [String] {
        try String(contentsOf: Self.catalog.appendingPathComponent(article), encoding: .utf8)
            .split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    private let titles = PipelineStage.allCases.map(\.title)

    /// The pipeline article's numbered list: the call, the stages in order, the transport.
    func testTheRequestPipelineArticleListsTheStagesInTheirOrder() throws {
        let items = try lines(of: "RequestPipeline.md").compactMap { line -> String? in
            guard let dot = line.firstIndex(of: "."), Int(line[..<dot]) != nil,
                let open = line.range(of: "**"),
                let close = line.range(of: ".**", range: open.upperBound..<line.endIndex)
            else { return nil }
            return String(line[open.upperBound..<close.lowerBound])
        }

        XCTAssertEqual(items.first, "The call (monitoring)")
        XCTAssertEqual(items.last, "The transport")
        XCTAssertEqual(Array(items.dropFirst().dropLast()), titles)
    }

    /// The overview's table: its rows named after a stage are every stage, in order.
    func testTheOverviewsTableListsTheStagesInTheirOrder() throws {
        let known = Set(titles.map { $0.lowercased() })
        let rows = try lines(of: "NetworkLayer.md").filter { $0.hasPrefix("| ") }.map {
            $0.dropFirst(2).prefix { $0 != "|" }.trimmingCharacters(in: .whitespaces)
        }

        XCTAssertEqual(rows.filter(known.contains), titles.map { $0.lowercased() })
        XCTAssertEqual(rows.first, "stage", "the table is found")
    }
}
