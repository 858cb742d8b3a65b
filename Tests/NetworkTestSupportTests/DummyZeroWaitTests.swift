import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// The dummy runs on a clock where every wait is over at once (issue 31): a retried request is answered
/// before the request method returns, however long the policy or the server asks to wait, and no deadline
/// ends a reply the test holds.
final class DummyZeroWaitTests: XCTestCase {
    private let items = "https://api.example.com/items"

    func testARetryAfterLongBackoffIsAnsweredBeforeTheMethodReturns() {
        let network = DummyNetworkLayer(
            retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: 20, maximumDelay: 60))
        network.stub(
            .get, items,
            outcomes: [
                .response(Data(), statusCode: 503, headers: [:]),
                .response(Data(), statusCode: 503, headers: ["Retry-After": "45"]),
                .success("ok"),
            ])
        let got = Captured<String>()
        network.get(urlString: items, successHandler: got.success, errorHandler: got.failure)
        XCTAssertEqual(got.values, ["ok"])
        XCTAssertEqual(network.recordedRequests.count, 3)
    }

    func testAHeldReplyOutlivesTheRequestsTotalTimeLimit() {
        let network = DummyNetworkLayer()
        network.holdsReplies = true
        let got = Captured<String>()
        var request = NetworkRequest<String>(method: .get, urlString: items)
        request.resourceTimeout = 0.01
        network.send(request, successHandler: { got.success($0.value) }, errorHandler: got.failure)
        // Real time passes well beyond the limit: on a real clock the request would have timed out.
        let later = expectation(description: "past the limit")
        // real wait: a negative check on real time; a dummy without a test clock must not time out
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { later.fulfill() }
        wait(for: [later], timeout: 5)
        XCTAssertEqual(got.count, 0, "a deadline ended the held reply")
        network.pendingRequests.first?.succeed(with: "ok")
        XCTAssertEqual(got.values, ["ok"])
    }
}
