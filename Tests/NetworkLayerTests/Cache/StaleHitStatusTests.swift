import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A policy that serves any stored reply says when the one it served was stale.
final class StaleHitStatusTests: CacheServerTestCase {
    func testReturnCacheDataElseLoadReportsAStaleReplyAsStale() {
        server.handler = { _ in MockResponse(text: "v1").cacheControl("max-age=60") }
        _ = load()
        XCTAssertEqual(status(load(policy: .returnCacheDataElseLoad)), .hit, "fresh")
        clock.advance(by: 120)
        let stale = load(policy: .returnCacheDataElseLoad)
        XCTAssertEqual(body(stale), "v1")
        XCTAssertEqual(status(stale), .staleHit)
        XCTAssertEqual(status(stale)?.isFromCache, true)
        XCTAssertNil(status(stale)?.staleError, "no error made it stale")
        XCTAssertEqual(server.requestCount, 1)
    }

    func testReturnCacheDataDontLoadReportsAStaleReplyAsStale() {
        server.handler = { _ in MockResponse(text: "v1").cacheControl("max-age=60") }
        _ = load()
        clock.advance(by: 120)
        XCTAssertEqual(status(load(policy: .returnCacheDataDontLoad)), .staleHit)
    }
}
