import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A `HEAD` reply whose validators match the stored `GET` reply updates its headers and freshness (RFC 9111
/// §4.3.5); one about another version leaves it as it was.
final class HeadUpdateTests: CacheServerTestCase {
    private func serve(getVersion: String, headTag: String) {
        server.handler = { request in
            if request.method == "HEAD" {
                return MockResponse(
                    headers: ["ETag": headTag, "Cache-Control": "max-age=600", "X-Revision": "2"])
            }
            return MockResponse(text: getVersion).cacheControl("max-age=10").etag("\"v1\"")
                .addingHeader("X-Revision", "1").notModified(ifMatching: request)
        }
    }

    func testAMatchingHeadReplyRefreshesTheStoredHeaders() throws {
        serve(getVersion: "v1", headTag: "\"v1\"")
        _ = load()
        clock.advance(by: 60)
        XCTAssertEqual(try load(method: .head).get().statusCode, 200)
        let next = load()
        XCTAssertEqual(status(next), .hit, "the HEAD reply's max-age=600 made the entry fresh")
        XCTAssertEqual(body(next), "v1", "the body is the stored GET's")
        XCTAssertEqual(try next.get().headers["X-Revision"], "2")
        XCTAssertEqual(server.recordedRequests.filter { $0.method == "GET" }.count, 1)
    }

    func testAHeadReplyAboutAnotherVersionLeavesTheEntry() throws {
        serve(getVersion: "v1", headTag: "\"v2\"")
        _ = load()
        clock.advance(by: 60)
        _ = load(method: .head)
        let next = load()
        XCTAssertNotEqual(status(next), .hit)
        XCTAssertEqual(try next.get().headers["X-Revision"], "1")
    }
}
