import Foundation
import NetworkLayer
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private struct Page: Encodable {
    let size: Int
    let number: Int
}

private struct Filter: Encodable {
    let status: [String]
    let since: Date
    let unread: Bool
    let page: Page
    let query: String?
    let ratio: Double
}

/// The conventions of `URLFormEncoder`, shared by query items and form bodies.
final class URLFormEncoderTests: XCTestCase {
    private let filter = Filter(
        status: ["open", "blocked"], since: Date(timeIntervalSince1970: 1_795_514_400), unread: true,
        page: Page(size: 20, number: 2), query: nil, ratio: 0.5)

    private func text(_ encoder: URLFormEncoder, _ value: some Encodable) throws -> String {
        String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func testTheDefaultConventions() throws {
        XCTAssertEqual(
            try text(URLFormEncoder(), filter),
            "page%5Bnumber%5D=2&page%5Bsize%5D=20&ratio=0.5&since=2026-11-24T10%3A00%3A00Z"
                + "&status%5B%5D=open&status%5B%5D=blocked&unread=true")
        let items = try URLFormEncoder().queryItems(from: filter)
        XCTAssertEqual(
            items.map(\.name),
            ["page[number]", "page[size]", "ratio", "since", "status[]", "status[]", "unread"])
    }

    func testEveryOption() throws {
        let encoder = URLFormEncoder(
            arrayEncoding: .repeatedKey, dateEncoding: .secondsSince1970, boolEncoding: .numeric)
        let items = try encoder.queryItems(from: filter)
        XCTAssertEqual(
            items.map { "\($0.name)=\($0.value ?? "")" },
            [
                "page[number]=2", "page[size]=20", "ratio=0.5", "since=1795514400", "status=open",
                "status=blocked", "unread=1",
            ])
        let indexed = try URLFormEncoder(arrayEncoding: .indexed, dateEncoding: .millisecondsSince1970)
            .queryItems(from: ["ids": [3, 4]])
        XCTAssertEqual(indexed.map { "\($0.name)=\($0.value ?? "")" }, ["ids[0]=3", "ids[1]=4"])
    }

    func testSnakeCaseKeysAndReservedCharacters() throws {
        struct Search: Encodable {
            let searchText: String
        }
        XCTAssertEqual(
            try text(URLFormEncoder(convertsKeysToSnakeCase: true), Search(searchText: "a+b & c=d/é")),
            "search_text=a%2Bb%20%26%20c%3Dd%2F%C3%A9")
    }

    func testAValueWithoutNamesFailsToEncode() {
        XCTAssertThrowsError(try URLFormEncoder().queryItems(from: [1, 2])) { error in
            guard case .encodingFailed = error as? NetworkError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try URLFormEncoder().queryItems(from: ["x": Double.nan]))
    }
}
