import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A followed redirect fetched the target URL's current body: the target's older stored reply must not be
/// served after it.
final class RedirectedEntryTests: CacheServerTestCase {
    func testTheTargetsOlderStoredReplyIsNotServedAfterARedirectFetchedANewerOne() {
        let version = Shared(1)
        server.handler = { request in
            if request.path == "/old" { return MockResponse(status: 302, headers: ["Location": "/items"]) }
            return MockResponse(text: "v\(version.value)").cacheControl("max-age=600")
        }
        XCTAssertEqual(body(load("items")), "v1")
        XCTAssertEqual(status(load("items")), .hit)
        version.value = 2
        XCTAssertEqual(body(load("old")), "v2", "the redirect's target, fetched")
        let next = load("items")
        XCTAssertEqual(body(next), "v2", "the older stored body was served after a newer one was fetched")
    }
}
