import Foundation
import XCTest

@testable import NetworkInspector
@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Each attempt's curl command: the logger's for the same request, written from the record's redacted
/// parts when a page reads it, so a record holds its body once and no command nobody reads.
final class InspectorCurlTests: XCTestCase {
    private static let url = URL(string: "https://api.example.com/v1/items?access_token=abc&page=2")!

    private static func post(_ body: Data) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("Bearer s3cret", forHTTPHeaderField: "Authorization")
        request.setValue("it's", forHTTPHeaderField: "X-Note")
        request.setValue("k-1", forHTTPHeaderField: "X-Key")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = body
        return request
    }

    /// The curl command of the one attempt `request` makes through `inspector`.
    private static func curl(_ request: URLRequest, _ inspector: NetworkInspector) throws -> String {
        let monitored = MonitoredRequest(method: .post, url: request.url, credentialHeaders: ["x-key"])
        inspector.didBuild(request, for: MonitoredAttempt(request: monitored, number: 1))
        let attempt = try XCTUnwrap(inspector.store.snapshot().requests.last?.attempts.first)
        let encoded =
            try JSONSerialization.jsonObject(with: InspectorEvent.encoded(attempt)) as? [String: Any]
        return try XCTUnwrap(encoded?["curl"] as? String)
    }

    func testTheCommandIsTheLoggersForTheSameRequest() throws {
        let inspector = NetworkInspector(configuration: .init(maximumBodyBytes: 1_000), serving: true)
        let request = Self.post(Data(#"{"password":"hunter2","item":42}"#.utf8))
        let logger = NetworkLogger(level: .full, sink: { _ in })

        let curl = try Self.curl(request, inspector)
        XCTAssertEqual(curl, logger.curlCommand(for: request, credentialHeaders: ["x-key"]))
        for secret in ["s3cret", "hunter2", "abc", "k-1"] {
            XCTAssertFalse(curl.contains(secret), "\(secret) in \(curl)")
        }
    }

    func testACutBodySaysSo() throws {
        let inspector = NetworkInspector(configuration: .init(maximumBodyBytes: 10), serving: true)
        let request = Self.post(Data(#"{"item":42,"name":"x"}"#.utf8))
        var cut = request
        cut.httpBody = request.httpBody?.prefix(10)
        let logger = NetworkLogger(level: .full, sink: { _ in })

        XCTAssertEqual(
            try Self.curl(request, inspector),
            logger.curlCommand(for: cut, credentialHeaders: ["x-key"]) + " # body cut at 10 of 22 bytes")
    }

    func testWithRedactionOffTheCommandIsAsSent() throws {
        let inspector = NetworkInspector(configuration: .init(redactsSecrets: false), serving: true)
        let request = Self.post(Data(#"{"password":"hunter2"}"#.utf8))

        XCTAssertEqual(
            try Self.curl(request, inspector),
            "curl -X 'POST' 'https://api.example.com/v1/items?access_token=abc&page=2'"
                + " -H 'Authorization: Bearer s3cret' -H 'Content-Type: application/json' -H 'X-Key: k-1'"
                + #" -H 'X-Note: it'\''s' --data-raw '{"password":"hunter2"}'"#)
    }

    /// An attempt an interceptor sent elsewhere shows that URL, redacted, in the row and its command; the
    /// next attempt, to the request's own URL, shows that one again.
    func testEachAttemptShowsItsOwnURL() throws {
        let inspector = NetworkInspector(configuration: .init(), serving: true)
        let monitored = MonitoredRequest(method: .get, url: URL(string: "https://a.example/items?page=1"))
        var moved = URLRequest(url: URL(string: "https://b.example/items?page=1&token=t0k")!)
        inspector.didBuild(moved, for: MonitoredAttempt(request: monitored, number: 1))
        let first = try XCTUnwrap(inspector.store.snapshot().requests.first)
        XCTAssertEqual(first.url, "https://b.example/items?page=1&token=<redacted>")
        XCTAssertEqual(first.attempts.last?.curl.url, first.url)

        moved.url = monitored.url
        inspector.didBuild(moved, for: MonitoredAttempt(request: monitored, number: 2))
        let second = try XCTUnwrap(inspector.store.snapshot().requests.first)
        XCTAssertEqual(second.url, "https://a.example/items?page=1")
        XCTAssertEqual(second.attempts.last?.curl.url, second.url)
    }

    /// The command shows the body as the record does: cut inside a character, it stays text.
    func testABodyCutInsideACharacterStaysText() throws {
        let inspector = NetworkInspector(configuration: .init(maximumBodyBytes: 5), serving: true)
        let request = Self.post(Data("ééé".utf8))

        XCTAssertTrue(
            try Self.curl(request, inspector).hasSuffix("--data-raw 'éé' # body cut at 5 of 6 bytes"))
    }

    /// A record holds each request body's kept bytes once: the command isn't a second copy of them.
    func testARecordHoldsItsRequestBodyOnce() throws {
        let inspector = NetworkInspector(
            configuration: .init(maximumRequests: 10, maximumBodyBytes: 10_000), serving: true)
        for index in 0..<10 {
            Self.curlless(index, Data(repeating: UInt8(ascii: "x"), count: 10_000), inspector)
        }

        let records = inspector.store.snapshot().requests
        XCTAssertEqual(records.count, 10)
        for record in records {
            // 10,000 body bytes, and the URL and headers; a command kept beside them held 20,000.
            XCTAssertLessThan(record.keptBytes, 11_000)
        }
    }

    private static func curlless(_ index: Int, _ body: Data, _ inspector: NetworkInspector) {
        var request = post(body)
        request.url = URL(string: "https://api.example.com/v1/items/\(index)")
        let monitored = MonitoredRequest(method: .post, url: request.url)
        inspector.didBuild(request, for: MonitoredAttempt(request: monitored, number: 1))
    }
}
