import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

@testable import NetworkInspector

// A browser runs as a child process: macOS and Linux only.
#if os(macOS) || os(Linux)

    /// The inspector's page in a real browser (headless Chromium): what it renders from the embedded
    /// snapshot before its load event, and what live events change.
    final class InspectorBrowserTests: XCTestCase {
        private typealias Fixtures = InspectorPageFixtures

        /// The page for `snapshot` served by a `MockServer` as the inspector serves it (its event stream and
        /// snapshot from `events` and `resynced`, else 404), loaded with `query`, its DOM dumped (or, with
        /// `screenshot`, a PNG of it written there).
        private func dump(
            _ query: String = "", snapshot: Data = Fixtures.snapshot, events: [ServerSentEvent]? = nil,
            resynced: Data? = nil, stalls: Bool = false, screenshot: URL? = nil
        ) throws -> InspectorPageDOM {
            let browser = try InspectorBrowser.find()
            let page = InspectorPage.html(snapshot: snapshot, token: "t0ken")
            let server = MockServer { request in
                guard request.queryValue("token") == "t0ken" else { return MockResponse(status: 403) }
                switch request.path {
                case "/":
                    return MockResponse(headers: ["Content-Type": "text/html; charset=utf-8"], body: page)
                case "/api/events" where events != nil:
                    return .serverSentEvents(events ?? [], ending: stalls ? .stall : .close)
                case "/api/snapshot" where resynced != nil:
                    return MockResponse(
                        headers: ["Content-Type": "application/json"], body: resynced ?? Data())
                default: return MockResponse(status: 404)
                }
            }
            try server.start()
            defer { server.stop() }
            let url = try XCTUnwrap(server.url("/?token=t0ken" + query))
            if let screenshot {
                try browser.screenshot(url, to: screenshot, width: 1400, height: 900)
                return InspectorPageDOM(html: "")
            }
            // Live events arrive after the load event: the browser gets virtual time to receive them.
            return InspectorPageDOM(html: try browser.dumpDOM(url, virtualTime: events == nil ? nil : 3000))
        }

        /// Writes the article's screenshot (the fixture, one request's detail open, the event stream open)
        /// to the path in `INSPECTOR_SCREENSHOT`; skipped without it.
        func testScreenshotForTheArticle() throws {
            guard let path = ProcessInfo.processInfo.environment["INSPECTOR_SCREENSHOT"] else {
                throw XCTSkip(
                    "set INSPECTOR_SCREENSHOT=/path/inspector.png to write the article's screenshot")
            }
            let open = [ServerSentEvent(event: "hello", data: "{}", retry: 600)]
            _ = try dump(
                "&detail=retried", events: open, stalls: true, screenshot: URL(fileURLWithPath: path))
            XCTAssertTrue(FileManager.default.fileExists(atPath: path))
        }

        private func rows(_ dom: InspectorPageDOM) -> [String: InspectorPageDOM.Row] {
            Dictionary(dom.rows.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        }

        func testEachRequestIsARowWithItsFiguresBeforeTheLoadEvent() throws {
            let dom = try dump()
            XCTAssertEqual(dom.rows.map(\.id), Fixtures.ids)
            let rows = rows(dom)
            XCTAssertEqual(rows["ok"]?.classes, [])
            XCTAssertEqual(rows["ok"]?.cell("status"), "200")
            XCTAssertEqual(rows["ok"]?.cell("duration"), "180 ms")
            XCTAssertEqual(rows["ok"]?.cell("size"), "1.5 KB")
            XCTAssertEqual(rows["ok"]?.cell("account"), "alice")
            XCTAssertEqual(rows["failed"]?.classes, ["error"])
            XCTAssertEqual(rows["failed"]?.cell("status"), "The request timed out.")
            XCTAssertEqual(rows["hostile"]?.classes, ["error"], "a 500 stands out too")
            XCTAssertEqual(rows["shared"]?.cell("shared"), "3")
            XCTAssertEqual(rows["shared"]?.cell("cache"), "revalidated")
            XCTAssertEqual(rows["shared"]?.cell("budget"), "120 ms")
            XCTAssertEqual(rows["retried"]?.cell("retries"), "1")
            XCTAssertEqual(rows["retried"]?.cell("rate"), "250 ms")
            XCTAssertEqual(rows["running"]?.classes, ["running"])
            XCTAssertEqual(rows["running"]?.cell("status"), "pending")
            XCTAssertEqual(dom.text(ofElement: "summary"), "7 requests")
            XCTAssertNil(dom.detail, "no detail without ?detail=")
        }

        func testTheWaterfallHasABarPerRequestWithItsPhases() throws {
            let bars = try dump().bars
            XCTAssertEqual(bars.map(\.id), Fixtures.ids)
            let phases = Dictionary(bars.map { ($0.id, $0.phases) }, uniquingKeysWith: { first, _ in first })
            XCTAssertEqual(phases["ok"], ["queued", "policies", "wire", "decoding", "delivered"])
            XCTAssertEqual(phases["failed"], ["queued", "policies", "wire"])
            XCTAssertEqual(
                phases["retried"],
                ["queued", "policies", "wire", "policies", "wire", "decoding", "delivered"])
            XCTAssertEqual(phases["running"], ["queued", "policies", "wire"])
        }

        func testTheDetailParameterOpensOneRequestWithEachAttemptAndItsCurlCommand() throws {
            let dom = try dump("&detail=retried")
            let detail = try XCTUnwrap(dom.detail, "?detail=retried opens the detail view")
            XCTAssertEqual(detail.id, "retried")
            XCTAssertEqual(rows(dom)["retried"]?.classes, ["selected"])
            for expected in [
                "GET https://search.example.com/v2/search?q=swift",
                "Attempt 1 · HTTP 503 · 48 ms · retried after 1.00 s",
                "Attempt 2 · HTTP 200 · 250 ms", "Retry-After",
                "curl 'https://search.example.com/v2/search?q=swift'",
                "budget 0 ms, rate limit 250 ms", "Waiting on policies", "{\n  \"hits\": 12\n}",
            ] {
                XCTAssertTrue(detail.html.contains(expected), "the detail shows \(expected)")
            }
            XCTAssertEqual(
                InspectorPageDOM.matches(#"<section class="attempt[^"]*""#, in: detail.html).count, 2)
        }

        func testABinaryBodyShowsItsSizeAndThatItWasTruncated() throws {
            let detail = try XCTUnwrap(try dump("&detail=binary").detail)
            XCTAssertTrue(detail.html.contains("binary, 48213 bytes"), detail.html)
            XCTAssertTrue(detail.html.contains("truncated, 48213 bytes in full"), detail.html)
            XCTAssertTrue(detail.html.contains("fresh for max-age=3600"), "the cache's reason")
        }

        func testHostileURLsHeadersAndBodiesStayText() throws {
            let dom = try dump("&detail=hostile")
            let detail = try XCTUnwrap(dom.detail)
            XCTAssertFalse(dom.html.contains("<img"), "no element was made from the app's data")
            XCTAssertFalse(dom.html.contains("<b>"))
            XCTAssertEqual(
                dom.html.components(separatedBy: "<script").count, 3, "only the page's two scripts")
            XCTAssertTrue(dom.html.contains("<title>NetworkInspector</title>"), "no script of the body ran")
            XCTAssertTrue(
                detail.html.contains(
                    "&lt;/script&gt;&lt;script&gt;document.title='pwned'&lt;/script&gt;&lt;img"),
                "the body shows as text")
            XCTAssertTrue(
                detail.html.contains("&lt;img src=x onerror=alert(4)&gt;"), "a header shows as text")
            XCTAssertEqual(rows(dom)["hostile"]?.cell("account"), "&lt;i&gt;mallory&lt;/i&gt;")
        }

        func testTheFilterParameterShowsOnlyMatchingRequests() throws {
            let dom = try dump("&filter=SEARCH")
            XCTAssertEqual(dom.rows.map(\.id), ["retried"])
            XCTAssertEqual(dom.bars.map(\.id), ["retried"])
            XCTAssertEqual(dom.text(ofElement: "summary"), "1 of 7 requests")
        }

        func testTheStreamsTransfersAndOutboxSectionsShowWhenPresent() throws {
            let html = try dump().html
            for expected in [
                #"<section id="streams">"#, "{\"type\":\"ping\"}", #"<section id="transfers">"#,
                #"<progress max="10485760" value="6291456">"#, "2.0 MB", #"<section id="outbox">"#,
                "Dead letters 1", "dead letter",
            ] {
                XCTAssertTrue(html.contains(expected), "the page shows \(expected)")
            }
        }
        /// A Request object as the `request` event carries it, with no phases but one on the wire.
        private func request(_ id: String, status: Int?, start: Int, end: Int?) throws -> String {
            let object: [String: Any] = [
                "id": id, "layer": "", "method": "DELETE", "url": "https://api.example.com/v1/\(id)",
                "status": status ?? NSNull(), "error": NSNull(), "start": start, "end": end ?? NSNull(),
                "bytesSent": 0, "bytesReceived": 0, "cache": "off", "cacheReason": NSNull(), "sharedBy": 1,
                "retries": 0, "queuedBudget": 0, "queuedRateLimit": 0, "waitingOnPolicies": 0,
                "account": NSNull(), "phases": [["name": "wire", "start": start, "end": end ?? start]],
                "attempts": [], "requestBody": NSNull(), "responseBody": NSNull(),
            ]
            return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }

        // The first event sets a reconnection delay longer than the test, so the page does not reconnect.
        func testRequestEventsAddARowAndUpdateOneInPlace() throws {
            let dom = try dump(events: [
                ServerSentEvent(
                    event: "request", data: try request("live", status: 204, start: 2300, end: 2350),
                    retry: 600),
                ServerSentEvent(
                    event: "request", data: try request("running", status: 201, start: 2000, end: 2500)),
            ])
            XCTAssertEqual(dom.rows.map(\.id), Fixtures.ids + ["live"])
            XCTAssertEqual(rows(dom)["live"]?.cell("status"), "204")
            XCTAssertEqual(rows(dom)["running"]?.cell("status"), "201", "an upsert replaces the row")
            XCTAssertEqual(rows(dom)["running"]?.cell("duration"), "500 ms")
            XCTAssertEqual(dom.bars.map(\.id), Fixtures.ids + ["live"])
        }

        func testAClearEventEmptiesTheTable() throws {
            let dom = try dump(events: [ServerSentEvent(event: "clear", data: "{}", retry: 600)])
            XCTAssertEqual(dom.rows.map(\.id), [])
            XCTAssertEqual(dom.bars.map(\.id), [])
            XCTAssertEqual(dom.text(ofElement: "summary"), "0 requests")
        }

        func testAResyncEventReplacesWhatIsShownWithANewSnapshot() throws {
            let snapshot =
                #"{"now": 9000, "maxRequests": 2, "maxBodyBytes": 10, "dropped": 12, "requests": [REQUEST], "#
                + #""streams": [], "transfers": [], "outbox": null}"#
            let resynced = snapshot.replacingOccurrences(
                of: "REQUEST", with: try request("fresh", status: 200, start: 8000, end: 8100))
            let dom = try dump(
                events: [ServerSentEvent(event: "resync", data: "{}", retry: 600)],
                resynced: Data(resynced.utf8))
            XCTAssertEqual(dom.rows.map(\.id), ["fresh"])
            XCTAssertEqual(dom.text(ofElement: "summary"), "1 request · 12 older evicted")
            XCTAssertFalse(
                dom.html.contains(#"<section id="outbox">"#), "the outbox went with the old snapshot")
        }
    }

#endif
