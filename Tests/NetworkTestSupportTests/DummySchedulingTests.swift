import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// The scheduler under `DummyNetworkLayer` (issue 34): held replies share, queue behind a budget, and wait
/// on the test clock.
final class DummySchedulingTests: XCTestCase {
    func testWaitingForTheBudgetCountsAgainstTheRequestsTimeLimit() {
        let clock = TestClock()
        let network = DummyNetworkLayer(
            baseURL: URL(string: "https://api.example.com"), clock: clock,
            scheduling: RequestScheduling(maximumRequestsPerOrigin: 1))
        network.holdsReplies = true
        network.successResponse = ["x"]
        let first = Captured<[String]>()
        network.get(urlString: "/first", successHandler: first.success, errorHandler: first.failure)
        var hurried = NetworkRequest<[String]>(urlString: "/hurried")
        hurried.resourceTimeout = 5
        let second = Captured<[String]>()
        network.send(hurried, successHandler: { second.success($0.value) }, errorHandler: second.failure)
        clock.advance(by: 5)
        XCTAssertEqual(
            second.errorDescriptions, [NetworkError.timedOut.description], "timed out while queued")
        network.pendingRequests[0].respond()
        XCTAssertEqual(first.values, [["x"]])
        XCTAssertEqual(
            network.recordedRequests.map(\.url.path), ["/first"], "the one that timed out never went")
        XCTAssertEqual(network.scheduledCount, 0)
    }

    func testAStubbed429HoldsTheOriginOnTheClockAndTheNextRequestWaits() {
        let clock = TestClock()
        let network = DummyNetworkLayer(clock: clock)
        network.stub(
            .get, "https://api.example.com/feed",
            outcomes: [.response(Data(), statusCode: 429, headers: ["Retry-After": "3"]), .success(["ok"])])
        let first = Captured<[String]>()
        network.get(
            urlString: "https://api.example.com/feed", successHandler: first.success,
            errorHandler: first.failure)
        let second = Captured<[String]>()
        network.get(
            urlString: "https://api.example.com/feed", successHandler: second.success,
            errorHandler: second.failure)
        XCTAssertEqual(network.recordedRequests.count, 1, "the second waits for the pause")
        clock.advance(by: 2.999)
        XCTAssertEqual(second.count, 0)
        clock.advance(by: 0.001)
        XCTAssertEqual(second.values, [["ok"]])
        XCTAssertEqual(network.scheduledCount, 0)
    }

    func testSchedulingDisabledHoldsEachIdenticalRequestOnItsOwn() {
        let network = DummyNetworkLayer(scheduling: .disabled)
        network.holdsReplies = true
        for _ in 0..<3 {
            network.get(
                urlString: "https://x.test/me", successHandler: { (_: [String]) in }, errorHandler: { _ in })
        }
        XCTAssertEqual(network.pendingRequests.count, 3)
    }

    func testARequestsOwnSchedulingWithoutABudgetIsExemptFromTheLayers() {
        let network = DummyNetworkLayer(scheduling: RequestScheduling(maximumRequestsPerOrigin: 1))
        network.holdsReplies = true
        network.get(
            urlString: "https://x.test/a", successHandler: { (_: [String]) in }, errorHandler: { _ in })
        network.get(
            urlString: "https://x.test/b", successHandler: { (_: [String]) in }, errorHandler: { _ in })
        var exempt = NetworkRequest<[String]>(urlString: "https://x.test/c")
        exempt.scheduling = RequestScheduling()
        network.send(exempt, successHandler: { _ in }, errorHandler: { _ in })
        XCTAssertEqual(
            network.pendingRequests.map(\.request.url.path), ["/a", "/c"],
            "/b waits for the budget, /c doesn't")
    }

    func testAStubTransportLayerHoldsTheOriginOnTheTestClockToo() {
        let stubs = StubTransport()
        stubs.stub(.get, .any, with: StubResponse(status: 429, headers: ["Retry-After": "2"]))
        let clock = TestClock()
        let network = stubs.makeNetworkLayer(
            callbackQueue: DispatchQueue(label: "stub-scheduling"), clock: clock)
        let first = expectation(description: "first")
        network.get(
            urlString: "https://api.example.com/feed", successHandler: { (_: [String]) in first.fulfill() },
            errorHandler: { error in
                XCTAssertEqual(error.statusCode, 429)
                first.fulfill()
            })
        wait(for: [first], timeout: 10)
        stubs.reset()  // forgets the stubs and what was recorded
        stubs.stub(.get, .any, with: .json(["ok"]))
        let second = expectation(description: "second")
        let value = Locked<[String]?>(nil)
        network.get(
            urlString: "https://api.example.com/feed",
            successHandler: { (posts: [String]) in
                value.withLock { $0 = posts }
                second.fulfill()
            }, errorHandler: { _ in second.fulfill() })
        XCTAssertTrue(
            clock.wait { $0.pendingDeadlines.contains { abs($0 - 2) < 0.001 } }, "held for the pause")
        XCTAssertEqual(stubs.recordedRequests.count, 0, "nothing sent during the pause")
        clock.advance(by: 2)
        wait(for: [second], timeout: 10)
        XCTAssertEqual(value.withLock { $0 }, ["ok"])
        XCTAssertEqual(stubs.recordedRequests.count, 1)
    }
}
