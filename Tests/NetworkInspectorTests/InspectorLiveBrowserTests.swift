import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

@testable import NetworkInspector

// A browser runs as a child process: macOS and Linux only.
#if os(macOS) || os(Linux)

    /// The page a running inspector serves, in headless Chromium, after a real layer made known requests
    /// against MockServer: from the recording through the server to the rows, the waterfall and a detail.
    final class InspectorLiveBrowserTests: XCTestCase {
        /// Answers by path: `/flaky` fails once with 503, `/missing` is 404, `/cached` may be kept 10
        /// minutes, `/shared` answers late enough for a second identical GET to join the first, `/file.bin`
        /// is 200,000 bytes to download.
        private static func answer(_ request: MockServerRequest, flakyCalls: Locked<Int>) -> MockResponse {
            switch request.path {
            case "/flaky":
                let call = flakyCalls.withLock { calls in
                    calls += 1
                    return calls
                }
                return call == 1 ? MockResponse(status: 503) : MockResponse(text: "recovered")
            case "/missing":
                return MockResponse(status: 404, headers: [:], text: "gone")
            case "/cached":
                return MockResponse(headers: ["Cache-Control": "max-age=600"], text: "kept")
            case "/file.bin":
                return MockResponse(body: Data(count: 200_000))
            case "/shared":
                var reply = MockResponse(text: "one for two")
                reply.delayBeforeHeaders = 0.5
                return reply
            default:
                return MockResponse(text: "plain")
            }
        }

        /// A plain GET, two identical GETs at once, a 503 then 200, a 404, and a GET twice (the second
        /// from the memory cache), and a download; returns once every one has finished.
        private func makeKnownRequests(_ harness: InspectorHarness) throws {
            harness.get("/plain")
            let shared = (0..<2).map { XCTestExpectation(description: "shared GET \($0)") }
            for done in shared {
                harness.network.send(NetworkRequest<Data>(urlString: "/shared")) { _ in done.fulfill() }
            }
            XCTAssertEqual(XCTWaiter().wait(for: shared, timeout: 10), .completed)
            harness.get("/flaky")
            harness.get("/missing")
            harness.get("/cached", count: 2)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
            addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let downloaded = XCTestExpectation(description: "download")
            harness.network.send(
                NetworkRequest<URL>.download(urlString: "/file.bin", to: folder.appendingPathComponent("f")),
                successHandler: { _ in downloaded.fulfill() }, errorHandler: { _ in downloaded.fulfill() })
            XCTAssertEqual(XCTWaiter().wait(for: [downloaded], timeout: 10), .completed)
            harness.waitForRecords(8)
        }

        func testThePageShowsTheRowsWaterfallAndDetailOfRequestsALayerMade() throws {
            let browser = try InspectorBrowser.find()
            let flakyCalls = Locked(0)
            let harness = try InspectorHarness(
                retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.01), cache: ResponseCache()
            ) { Self.answer($0, flakyCalls: flakyCalls) }
            try makeKnownRequests(harness)
            let url = try harness.inspector.start()
            defer { harness.inspector.stop() }

            let dom = InspectorPageDOM(html: try browser.dumpDOM(url))
            let recorded = try harness.requests().compactMap { $0["id"] as? String }
            XCTAssertEqual(dom.rows.map(\.id), recorded, "a row per recorded request, in order")
            let rows = dom.rows.map { row in
                (path: row.cell("url").map { String($0.drop { $0 != "/" }) } ?? "", row: row)
            }
            func row(_ path: String) -> InspectorPageDOM.Row? { rows.first { $0.path == path }?.row }

            XCTAssertEqual(
                rows.map(\.path),
                ["/plain", "/shared", "/shared", "/flaky", "/missing", "/cached", "/cached", "/file.bin"])
            XCTAssertEqual(Set(dom.rows.compactMap { $0.cell("method") }), ["GET"])
            XCTAssertEqual(row("/plain")?.cell("status"), "200")
            XCTAssertEqual(row("/plain")?.cell("shared"), "1")
            XCTAssertEqual(row("/plain")?.cell("cache"), "network")
            XCTAssertEqual(rows.filter { $0.path == "/shared" }.map { $0.row.cell("shared") }, ["2", "2"])
            XCTAssertEqual(row("/flaky")?.cell("status"), "200")
            XCTAssertEqual(row("/flaky")?.cell("retries"), "1")
            XCTAssertEqual(row("/missing")?.cell("status"), "404")
            XCTAssertEqual(row("/missing")?.classes, ["error"])
            XCTAssertEqual(
                rows.filter { $0.path == "/cached" }.map { $0.row.cell("cache") }, ["network", "hit"])
            XCTAssertEqual(dom.text(ofElement: "summary"), "8 requests")
            let transfers = dom.transfers
            XCTAssertEqual(transfers.map(\.id), [row("/file.bin")?.id ?? ""], "the download's row")
            XCTAssertEqual(transfers.first?.cells.first, "download")
            XCTAssertEqual(transfers.first?.cells.last, "finished")
            XCTAssertTrue(
                transfers.first?.cells.contains { $0.contains(#"<progress max="200000" value="200000">"#) }
                    == true,
                "\(transfers)")

            // Every request over the network went on the wire and was delivered; the cache hit took no
            // measurable time there, so its bar may have no phase at all.
            XCTAssertEqual(dom.bars.map(\.id), recorded, "a bar per request")
            let hit = try XCTUnwrap(rows.last { $0.path == "/cached" }?.row.id)
            for bar in dom.bars where bar.id != hit {
                XCTAssertEqual(bar.phases.first, "wire", "\(bar.id): \(bar.phases)")
                XCTAssertEqual(bar.phases.last, "delivered", "\(bar.id): \(bar.phases)")
            }
            let flaky = try XCTUnwrap(row("/flaky")?.id)

            let detailURL = try XCTUnwrap(URL(string: url.absoluteString + "&detail=\(flaky)"))
            let detailDOM = InspectorPageDOM(html: try browser.dumpDOM(detailURL))
            let detail = try XCTUnwrap(detailDOM.detail, "?detail= opens the detail view")
            XCTAssertEqual(detail.id, flaky)
            for expected in [
                "GET \(harness.server.baseURL.absoluteString)/flaky",
                "Attempt 1 · The server answered with an error (503",
                "retried after",
                "Attempt 2 · HTTP 200",
                "curl '\(harness.server.baseURL.absoluteString)/flaky'", "recovered", "Timing",
                #"data-phase="wire""#,
            ] {
                XCTAssertTrue(detail.html.contains(expected), "the detail shows \(expected)")
            }
        }
    }

#endif
