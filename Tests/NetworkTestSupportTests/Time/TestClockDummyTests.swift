import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// The dummy on a test clock (issue 33): its waits and deadlines run when the test advances the clock,
/// and what they deliver has been delivered when `advance(by:)` returns.
final class TestClockDummyTests: XCTestCase {
    private let items = "https://api.example.com/items"

    private func unavailable(_ headers: [String: String] = [:]) -> DummyOutcome {
        .response(Data(), statusCode: 503, headers: headers)
    }

    func testSevenAttemptsAgainst503sWaitTheBackoffTheTestReads() {
        let clock = TestClock()
        let network = DummyNetworkLayer(
            retryPolicy: RetryPolicy(maximumAttempts: 7, initialDelay: 2, maximumDelay: 30), clock: clock)
        network.stub(.get, items, outcomes: Array(repeating: unavailable(), count: 7))
        let got = Captured<String>()
        network.get(urlString: items, successHandler: got.success, errorHandler: got.failure)

        // Each retry goes out exactly when its wait is over, not a nanosecond before.
        for retry in 1...6 {
            XCTAssertEqual(clock.waits.count, retry, "one wait asked for per failed attempt")
            let wait = clock.waits[retry - 1]
            XCTAssertEqual(clock.pendingDeadlines.first ?? -1, wait, accuracy: 1e-6)
            clock.advance(by: max(0, wait - 0.001))
            XCTAssertEqual(network.recordedRequests.count, retry, "retry \(retry) went out early")
            clock.advance(by: 0.001)
            XCTAssertEqual(network.recordedRequests.count, retry + 1, "retry \(retry) didn't go out")
        }
        // Full jitter: each wait is drawn up to twice the one before, capped by the maximum delay.
        for (wait, ceiling) in zip(clock.waits, [2.0, 4, 8, 16, 30, 30]) {
            XCTAssertLessThanOrEqual(wait, ceiling)
            XCTAssertGreaterThanOrEqual(wait, 0)
        }
        XCTAssertEqual(clock.elapsed, clock.waits.reduce(0, +), accuracy: 0.01)
        XCTAssertEqual(got.errors.map(\.statusCode), [503], "the last attempt's error, delivered once")
        XCTAssertTrue(clock.pendingDeadlines.isEmpty)
    }

    func testRetryAfterInSecondsIsTheWait() {
        let clock = TestClock()
        let network = DummyNetworkLayer(
            retryPolicy: RetryPolicy(maximumAttempts: 2, maximumDelay: 60), clock: clock)
        network.stub(.get, items, outcomes: [unavailable(["Retry-After": "45"]), .success("ok")])
        let got = Captured<String>()
        network.get(urlString: items, successHandler: got.success, errorHandler: got.failure)

        XCTAssertEqual(clock.waits, [45])
        clock.advance(by: 44.999)
        XCTAssertEqual(got.count, 0)
        clock.advance(by: 0.001)
        XCTAssertEqual(got.values, ["ok"], "answered before advance(by:) returned")
    }

    func testRetryAfterAsAnHTTPDateIsCountedFromTheClocksDate() {
        // A date far from the real one: only the clock's date can make this a 7-second wait.
        let clock = TestClock(startingAt: Date(timeIntervalSince1970: 1_000_000_000))
        let network = DummyNetworkLayer(
            retryPolicy: RetryPolicy(maximumAttempts: 2, maximumDelay: 60), clock: clock)
        network.stub(
            .get, items,
            outcomes: [unavailable(["Retry-After": "Sun, 09 Sep 2001 01:46:47 GMT"]), .success("ok")])
        let got = Captured<String>()
        network.get(urlString: items, successHandler: got.success, errorHandler: got.failure)

        XCTAssertEqual(clock.waits, [7])
        clock.advance(by: 7)
        XCTAssertEqual(got.values, ["ok"])
    }

    func testAHeldReplyTimesOutAtTheRequestsTimeoutOfTestTime() {
        let clock = TestClock()
        let network = DummyNetworkLayer(clock: clock)
        network.holdsReplies = true
        let got = Captured<String>()
        var request = NetworkRequest<String>(method: .get, urlString: items)
        request.resourceTimeout = 30
        network.send(request, successHandler: { got.success($0.value) }, errorHandler: got.failure)

        clock.advance(by: 29.999)
        XCTAssertEqual(got.count, 0, "ended before its time")
        clock.advance(by: 0.001)
        XCTAssertEqual(
            got.errorDescriptions, [NetworkError.timedOut.description],
            "delivered before advance(by:) returned")
    }

    func testWithoutATestClockEveryWaitIsOverAtOnce() {
        let network = DummyNetworkLayer(retryPolicy: RetryPolicy(maximumAttempts: 2, maximumDelay: 60))
        network.stub(.get, items, outcomes: [unavailable(["Retry-After": "45"]), .success("ok")])
        let got = Captured<String>()
        network.get(urlString: items, successHandler: got.success, errorHandler: got.failure)
        XCTAssertEqual(got.values, ["ok"])
    }

    func testAdvanceUntilIdleRunsEveryWaitInOrder() {
        let clock = TestClock()
        let network = DummyNetworkLayer(
            retryPolicy: RetryPolicy(maximumAttempts: 4, initialDelay: 1, maximumDelay: 10), clock: clock)
        network.stub(.get, items, outcomes: [unavailable(), unavailable(), unavailable(), .success("ok")])
        let got = Captured<String>()
        network.get(urlString: items, successHandler: got.success, errorHandler: got.failure)

        XCTAssertEqual(clock.advanceUntilIdle(limit: 2), 2, "no more timers than the limit")
        XCTAssertEqual(got.count, 0)
        XCTAssertEqual(clock.advanceUntilIdle(), 1)
        XCTAssertEqual(got.values, ["ok"])
        XCTAssertEqual(clock.elapsed, clock.waits.reduce(0, +), accuracy: 0.001)
    }
}

/// A bearer token's expiry is read on the layer's clock: the authenticator refreshes ahead of it when
/// the test clock, not real time, reaches the refresh window.
final class TestClockTokenExpiryTests: XCTestCase {
    func testATokenIsRefreshedWhenTheClockEntersItsRefreshWindow() {
        let clock = TestClock()
        let refreshes = Locked(0)
        let authenticator = BearerTokenAuthenticator(
            token: .init("first", expiresAt: clock.date + 120),
            origins: [URL(string: "https://api.example.com")!], refreshWindow: 60
        ) { completion in
            refreshes.withLock { $0 += 1 }
            completion(.success(.init("second", expiresAt: clock.date + 3600)))
        }
        let network = DummyNetworkLayer(interceptors: [authenticator], clock: clock)
        network.stub(.get, "https://api.example.com/items", returning: "ok")
        let got = Captured<String>()
        func load() {
            network.get(
                urlString: "https://api.example.com/items", successHandler: got.success,
                errorHandler: got.failure)
        }

        load()
        clock.advance(by: 59)
        load()
        XCTAssertEqual(refreshes.withLock { $0 }, 0, "61 s before expiry is outside the 60 s window")
        clock.advance(by: 2)
        load()
        XCTAssertEqual(refreshes.withLock { $0 }, 1, "59 s before expiry is inside it")
        XCTAssertEqual(
            network.recordedRequests.map { $0.headers["Authorization"] },
            ["Bearer first", "Bearer first", "Bearer second"])
        XCTAssertEqual(got.values, ["ok", "ok", "ok"])
    }
}
