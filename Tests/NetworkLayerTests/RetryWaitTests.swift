import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

/// The one retry wait (``RequestTask/wait(_:on:queue:then:)``): on the layer's clock, a child of its call,
/// so the call's end stops its timer and lets what follows it run at once, finding the call ended. The
/// request loop's wait between attempts is one.
final class RetryWaitTests: XCTestCase {
    /// The test clock as the layer reads it.
    private static func networkClock(_ clock: TestClock) -> any NetworkClock {
        DummyNetworkLayer(clock: clock).clock
    }

    func testAWaitFollowsOnceWhenTheClockPassesIt() {
        let clock = TestClock()
        let task = RequestTask(delivery: .immediate, failureHandler: { _ in }, clock: SystemClock())
        let followed = Locked(0)
        let queue = DispatchQueue(label: "RetryWaitTests")

        task.wait(3, on: Self.networkClock(clock), queue: queue) { followed.withLock { $0 += 1 } }
        clock.advance(by: 2)
        queue.sync {}
        XCTAssertEqual(followed.withLock { $0 }, 0)
        clock.advance(by: 1)
        queue.sync {}

        XCTAssertEqual(followed.withLock { $0 }, 1)
        XCTAssertEqual(clock.waits, [3])
        XCTAssertNotNil(task.beginAttempt(), "the wait ended as its call's child")
    }

    func testTheCallsEndStopsTheTimerAndFollowsAtOnceFindingTheCallEnded() {
        let clock = TestClock()
        let ends = Locked<[String]>([])
        // A download's cancel waits for its child in flight: the wait ends with the cancel.
        let task = RequestTask(
            delivery: .immediate, failureHandler: { _ in ends.withLock { $0.append("handler") } },
            cancelWaitsForTransport: true, clock: SystemClock())
        let queue = DispatchQueue(label: "RetryWaitTests")

        task.wait(30, on: Self.networkClock(clock), queue: queue) {
            ends.withLock { $0.append(task.isSettled ? "followed, ended" : "followed, running") }
        }
        task.cancel()
        queue.sync {}
        clock.advance(by: 60)
        queue.sync {}

        XCTAssertEqual(ends.withLock { $0 }, ["handler", "followed, ended"])
        XCTAssertEqual(clock.pendingDeadlines, [])
    }

    func testAWaitOfAnEndedCallFollowsAtOnceWithoutATimer() {
        let clock = TestClock()
        let task = RequestTask(delivery: .immediate, failureHandler: { _ in }, clock: SystemClock())
        task.fail(.invalidResponse)
        let followed = expectation(description: "followed")

        task.wait(30, on: Self.networkClock(clock), queue: .global()) { followed.fulfill() }

        wait(for: [followed], timeout: 5)
        XCTAssertEqual(clock.waits, [])
    }

    /// The request loop waits between attempts with it: a cancel during a `Retry-After` wait stops the
    /// timer then, rather than leaving it armed until it would have fired.
    func testACancelDuringARetryWaitStopsItsTimer() {
        let clock = TestClock()
        let network = DummyNetworkLayer(
            retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 1, maximumDelay: 60), clock: clock)
        network.stub(
            .get, "https://api.example.com/feed",
            outcomes: [.response(Data(), statusCode: 503, headers: ["Retry-After": "30"]), .success(Data())])
        let outcomes = Locked<[String]>([])

        let task = network.send(
            NetworkRequest<Data>(urlString: "https://api.example.com/feed"),
            successHandler: { _ in outcomes.withLock { $0.append("success") } },
            errorHandler: { error in
                outcomes.withLock { $0.append(error.isCancelled ? "cancelled" : error.message) }
            })
        XCTAssertEqual(clock.waits, [30])
        task.cancel()
        XCTAssertTrue(clock.wait { $0.pendingDeadlines.isEmpty }, "\(clock.pendingDeadlines)")
        clock.advance(by: 60)

        XCTAssertEqual(outcomes.withLock { $0 }, ["cancelled"])
        XCTAssertEqual(network.recordedRequests.count, 1)
    }
}
