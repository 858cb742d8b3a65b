import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A `Last-Modified` goes back in `If-Modified-Since` as received (RFC 9111 §4.3.1), whether or not it
/// parses as an HTTP date.
final class LastModifiedEchoTests: CacheServerTestCase {
    func testAValueThatIsNoDateIsSentBackAsReceived() {
        let odd = "last tuesday, around noon"
        server.handler = { request in
            MockResponse(text: "v1").cacheControl("max-age=0").addingHeader("Last-Modified", odd)
                .notModified(ifMatching: request)
        }
        _ = load()
        let second = load()
        XCTAssertEqual(server.recordedRequests.last?.header("If-Modified-Since"), odd)
        XCTAssertEqual(status(second), .revalidated)
        XCTAssertEqual(body(second), "v1")
    }
}
