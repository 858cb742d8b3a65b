import Foundation
import LoopbackHTTP
import NetworkLayer
import NetworkTestSupport
import XCTest

@testable import NetworkInspector

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The routes, driven by a real layer against MockServer, and the checks that refuse everyone but the page.
final class InspectorServerTests: XCTestCase {
    private var harness: InspectorHarness!
    private var pageURL: URL!

    override func setUpWithError() throws {
        harness = try InspectorHarness { _ in MockResponse(text: "hello") }
        pageURL = try harness.inspector.start()
    }

    override func tearDown() {
        harness.inspector.stop()
        harness = nil
    }

    private var port: Int { pageURL.port ?? 0 }
    private var token: String {
        URLComponents(url: pageURL, resolvingAgainstBaseURL: false)?.queryItems?[0].value ?? ""
    }

    private func fetch(_ target: String, host: String? = nil) -> String {
        let client = RawClient(port: port)
        client?.get(target, host: host ?? "127.0.0.1:\(port)")
        return client?.read() ?? ""
    }

    func testThePageURLIsOnLoopbackWithA128BitToken() {
        XCTAssertEqual(pageURL.scheme, "http")
        XCTAssertEqual(pageURL.host, "127.0.0.1")
        XCTAssertEqual(token.count, 32)
        XCTAssertTrue(token.allSatisfy(\.isHexDigit))
        XCTAssertEqual(harness.inspector.url, pageURL)
    }

    func testTheSnapshotListsTheLayersRequests() throws {
        harness.get("/users", count: 2)
        harness.waitForRecords(2)

        let reply = fetch("/api/snapshot?token=\(token)")
        XCTAssertEqual(RawClient.status(reply), 200)
        XCTAssertTrue(reply.contains("Content-Type: application/json"))
        let body = try XCTUnwrap(reply.components(separatedBy: "\r\n\r\n").last)
        let snapshot = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
        let requests = try XCTUnwrap(snapshot["requests"] as? [[String: Any]])
        XCTAssertEqual(requests.map { $0["status"] as? Int }, [200, 200])
        XCTAssertTrue((requests.first?["url"] as? String ?? "").hasSuffix("/users"))
    }

    func testThePageEmbedsTheSnapshot() {
        harness.get("/page-row")
        harness.waitForRecords(1)

        let reply = fetch("/?token=\(token)&detail=1")
        XCTAssertEqual(RawClient.status(reply), 200)
        XCTAssertTrue(reply.contains("Content-Type: text/html; charset=utf-8"))
        XCTAssertTrue(reply.contains(#"<script id="snapshot" type="application/json">"#))
        XCTAssertTrue(reply.contains("page-row"))
    }

    func testEveryRouteRefusesAMissingOrWrongToken() {
        let wrong = String(token.reversed())
        for target in ["/", "/api/snapshot", "/api/events", "/api/clear", "/nowhere"] {
            for query in ["", "?token=", "?token=\(wrong)", "?token=\(token)x", "?detail=1"] {
                let reply = fetch(target + query)
                XCTAssertEqual(RawClient.status(reply), 403, target + query)
                XCTAssertFalse(reply.contains("requests"), target + query)
            }
        }
    }

    func testTheTokenIsRefusedThroughURLSessionToo() throws {
        var components = try XCTUnwrap(URLComponents(url: pageURL, resolvingAgainstBaseURL: false))
        components.path = "/api/snapshot"
        components.queryItems = [URLQueryItem(name: "token", value: "0123456789abcdef0123456789abcdef")]
        let done = expectation(description: "reply")
        let url = try XCTUnwrap(components.url)
        let status = Locked(0)
        URLSession.shared.dataTask(with: url) { _, response, _ in
            status.withLock { $0 = (response as? HTTPURLResponse)?.statusCode ?? 0 }
            done.fulfill()
        }.resume()
        wait(for: [done], timeout: 10)
        XCTAssertEqual(status.withLock { $0 }, 403)
    }

    func testAHostOtherThanLoopbackWithThePortIsRefused() {
        for host in [
            "evil.example", "evil.example:\(port)", "127.0.0.1", "127.0.0.1:\(port + 1)", "localhost",
        ] {
            XCTAssertEqual(RawClient.status(fetch("/api/snapshot?token=\(token)", host: host)), 421, host)
        }
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "[::1]:\(port)", "LOCALHOST:\(port)"] {
            XCTAssertEqual(RawClient.status(fetch("/api/snapshot?token=\(token)", host: host)), 200, host)
        }
        let client = RawClient(port: port)
        client?.send("GET /api/snapshot?token=\(token) HTTP/1.1\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(RawClient.status(client?.read() ?? ""), 421, "no Host at all")
    }

    func testNoReplyCarriesACORSHeader() {
        let replies = [
            fetch("/?token=\(token)"), fetch("/api/snapshot?token=\(token)"), fetch("/api/snapshot"),
            fetch("/api/snapshot?token=\(token)", host: "evil.example"),
        ]
        for reply in replies {
            XCTAssertFalse(reply.lowercased().contains("access-control-"), reply)
        }
    }

    func testClearEmptiesTheStore() {
        harness.get("/a")
        harness.waitForRecords(1)

        XCTAssertEqual(RawClient.status(fetch("/api/clear?token=\(token)")), 200)
        XCTAssertEqual(harness.inspector.store.snapshot().requests.count, 0)
    }

    func testTheEventStreamSendsEachRequestAsItChanges() throws {
        let client = try XCTUnwrap(RawClient(port: port))
        client.get("/api/events?token=\(token)", host: "127.0.0.1:\(port)")
        XCTAssertTrue(client.read(until: "\r\n\r\n").contains("Content-Type: text/event-stream"))
        waitForTabs(1)

        harness.get("/streamed")
        harness.waitForRecords(1)
        let events = client.read(until: "\"status\":200")
        XCTAssertTrue(events.contains("event: request\ndata: {"), events)
        XCTAssertTrue(events.contains("streamed"), events)
        XCTAssertTrue(events.contains("\"status\":200"), events)

        harness.inspector.clear()
        XCTAssertTrue(client.read(until: "event: clear").contains("event: clear\ndata: {}\n\n"))
    }

    func testStopClosesThePortAndStartOpensANewOne() throws {
        harness.inspector.stop()
        XCTAssertNil(harness.inspector.url)
        XCTAssertNil(RawClient(port: port), "nothing listens on the old port")
        let again = try harness.inspector.start()
        XCTAssertNotEqual(again, pageURL)
        pageURL = again
        XCTAssertEqual(RawClient.status(fetch("/api/snapshot?token=\(token)")), 200)
    }

    /// Waits until `count` tabs follow the events.
    private func waitForTabs(_ count: Int) {
        let open = expectation(
            for: NSPredicate { [harness] _, _ in harness?.inspector.fanOut.count == count },
            evaluatedWith: nil)
        wait(for: [open], timeout: 5)
    }
}
