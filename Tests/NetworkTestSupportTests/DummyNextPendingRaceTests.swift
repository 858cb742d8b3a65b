import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A request `nextPendingRequest()` returns is one the test may cancel at once, as if it had read it
/// from `pendingRequests` after the call that made it returned.
final class DummyNextPendingRaceTests: XCTestCase {
    private struct Person: Codable, Sendable {
        var name: String
    }

    /// The request is made on another thread (a presenter's task); the test, woken by the hold, cancels
    /// everything and expects the `.cancelled` to have run when `cancelAll()` returns, as it does for a
    /// request held before.
    func testCancelAllRightAfterNextPendingRequestHasDeliveredWhenItReturns() async throws {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.holdsReplies = true
        var late = 0
        for _ in 0..<200 {
            let captured = Captured<[Person]>()
            DispatchQueue.global().async {
                network.get(
                    urlString: "/people", successHandler: captured.success, errorHandler: captured.failure)
            }
            let held = await network.nextPendingRequest()
            XCTAssertNotNil(held)
            network.cancelAll()
            if captured.count == 0 { late += 1 }
        }
        XCTAssertEqual(late, 0, "cancelAll() returned before the held request's handler ran")
    }
}
