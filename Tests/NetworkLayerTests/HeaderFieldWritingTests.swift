import Foundation
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The layer writes a request's header fields in one go; the result must be what one
/// `setValue(_:forHTTPHeaderField:)` per field leaves, on this platform.
final class HeaderFieldWritingTests: XCTestCase {
    private let cases:
        [(existing: [(name: String, value: String)], fields: [(name: String, value: String)])] = [
            ([], [("Accept", "application/json")]),
            ([], [("Accept", "*/*"), ("accept", "text/plain")]),
            ([], [("x-api-key", "k"), ("X-API-KEY", "K"), ("X-Request-ID", "1")]),
            ([("Authorization", "Bearer old"), ("X-Client", "app")], [("authorization", "Bearer new")]),
            (
                [("content-type", "text/plain")],
                [("Content-Type", "application/json"), ("Content-Length", "2")]
            ),
            ([("A", "1")], []),
        ]

    /// Apple's fact (``PlatformFacts/capitalizesHeaderNames`` false) on FoundationNetworking's requests:
    /// each name as given, a later one replacing an earlier one in any case, every value found whatever
    /// the case it is asked in. What Apple's own `setValue` stores only a Mac shows (<doc:LinuxNotes>).
    func testAppleFactsKeepNamesAsGiven() {
        for (existing, fields) in cases {
            var written = URLRequest(url: URL(string: "https://api.example.com/x")!)
            written.setHeaderFields(existing, facts: .apple)
            written.setHeaderFields(fields, facts: .apple)
            var lastName = [String: String]()
            for (name, _) in existing + fields { lastName[name.lowercased()] = name }
            XCTAssertEqual(
                Set((written.allHTTPHeaderFields ?? [:]).keys), Set(lastName.values),
                "\(existing) then \(fields)")
            for (name, value) in existing + fields where lastName[name.lowercased()] == name {
                XCTAssertEqual(written.value(forHTTPHeaderField: name.uppercased()), value)
            }
        }
    }

    func testOneWriteLeavesWhatSetValueLeaves() {
        for (existing, fields) in cases {
            var expected = URLRequest(url: URL(string: "https://api.example.com/x")!)
            for (name, value) in existing { expected.setValue(value, forHTTPHeaderField: name) }
            var written = expected
            for (name, value) in fields { expected.setValue(value, forHTTPHeaderField: name) }
            written.setHeaderFields(fields)
            XCTAssertEqual(
                written.allHTTPHeaderFields, expected.allHTTPHeaderFields, "\(existing) then \(fields)")
            for (name, _) in fields {
                XCTAssertEqual(
                    written.value(forHTTPHeaderField: name.uppercased()),
                    expected.value(forHTTPHeaderField: name.uppercased()))
            }
        }
    }
}
