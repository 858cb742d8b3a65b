import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A request's own `Cache-Control: only-if-cached` (RFC 9111 §5.2.1.7) is answered as
/// ``CachePolicy/returnCacheDataDontLoad`` is: from the cache, or failing, and never sent.
final class OnlyIfCachedTests: CacheServerTestCase {
    func testNothingStoredFailsWithoutASend() {
        let result = load(headers: ["Cache-Control": "only-if-cached"])
        guard case .failure(let error) = result else { return XCTFail("\(result)") }
        XCTAssertTrue(error.isNotCached, "\(error)")
        XCTAssertEqual(server.requestCount, 0, "an only-if-cached request went to the network")
    }

    func testAStaleStoredReplyIsServedWithoutASend() {
        server.handler = { _ in MockResponse(text: "v1").cacheControl("max-age=10").etag("\"v1\"") }
        _ = load()
        clock.advance(by: 60)
        let result = load(headers: ["Cache-Control": "max-stale=0, only-if-cached"])
        XCTAssertEqual(body(result), "v1")
        XCTAssertEqual(status(result)?.isFromCache, true)
        XCTAssertEqual(server.requestCount, 1, "an only-if-cached request went to the network")
    }

    /// The request's directive wins over a policy that would load.
    func testItWinsOverAReload() {
        let result = load(policy: .reloadIgnoringCache, headers: ["Cache-Control": "only-if-cached"])
        guard case .failure(let error) = result else { return XCTFail("\(result)") }
        XCTAssertTrue(error.isNotCached)
        XCTAssertEqual(server.requestCount, 0)
    }
}
