import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One rate-limit wait per origin (issue 34): after a `429` with `Retry-After`, or `RateLimit` fields
/// saying nothing remains, no request of the layer reaches that origin until the time given.
final class RateLimitTests: XCTestCase {
    private let queue = DispatchQueue(label: "rate-limit.callbacks")

    private func layer(_ server: MockServer, clock: TestClock?, retryPolicy: RetryPolicy = .none)
        -> NetworkLayer
    {
        NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue,
            retryPolicy: retryPolicy, cache: nil)
    }

    /// Sends GET `path` and returns its recorder.
    @discardableResult
    private func get(_ network: NetworkLayer, _ path: String, resourceTimeout: TimeInterval? = nil)
        -> OutcomeRecorder<Data>
    {
        let recorder = OutcomeRecorder<Data>(expectation(description: path))
        var request = NetworkRequest<Data>(urlString: path)
        request.resourceTimeout = resourceTimeout
        network.send(request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        return recorder
    }

    /// The first reply holds the origin; `reply` is its pause's fields.
    private func assertHeldForExactlyTwoSeconds(
        after reply: MockResponse, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let server = try MockServer.started(in: self)
        server.enqueue(reply)
        server.handler = { _ in MockResponse(status: 200, text: "ok") }
        let clock = TestClock()
        let network = layer(server, clock: clock)
        let first = get(network, "first")
        wait(for: [first.expectation], timeout: 10)
        let waiting = (0..<3).map { get(network, "later/\($0)") }
        XCTAssertTrue(
            clock.wait { $0.pendingDeadlines.contains { abs($0 - 2) < 0.001 } }, file: file, line: line)
        clock.advance(by: 1.999)
        XCTAssertEqual(
            server.requestCount, 1, "nothing reached the server before 2 s", file: file, line: line)
        clock.advance(by: 0.001)
        wait(for: waiting.map(\.expectation), timeout: 10)
        XCTAssertEqual(server.requestCount, 4, file: file, line: line)
        for recorder in waiting {
            XCTAssertEqual(recorder.results.first?.value, Data("ok".utf8), file: file, line: line)
            // Queued for exactly the pause, on the test clock.
        }
        XCTAssertEqual(network.scheduledCount, 0, file: file, line: line)
    }

    func testA429WithRetryAfterHoldsTheOriginForExactlyThatLong() throws {
        try assertHeldForExactlyTwoSeconds(after: .tooManyRequests(retryAfter: 2))
    }

    func testRateLimitFieldsHoldTheOriginTheSame() throws {
        try assertHeldForExactlyTwoSeconds(
            after: MockResponse(status: 200, headers: ["RateLimit": #""default";r=0;t=2"#], body: Data()))
    }

    func testTheCommonXRateLimitFieldsHoldTheOriginTheSame() throws {
        try assertHeldForExactlyTwoSeconds(
            after: MockResponse(
                status: 200, headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "2"], body: Data()))
    }

    func testAnotherOriginIsNotHeld() throws {
        let held = try MockServer.started(in: self)
        held.enqueue(MockResponse(status: 429, headers: ["Retry-After": "2"]))
        let other = try MockServer.started(in: self)
        other.handler = { _ in MockResponse(status: 200, text: "ok") }
        let network = layer(held, clock: TestClock())
        wait(for: [get(network, "first").expectation], timeout: 10)
        let elsewhere = get(network, other.baseURL.appendingPathComponent("x").absoluteString)
        wait(for: [elsewhere.expectation], timeout: 10)
        XCTAssertEqual(elsewhere.results.first?.value, Data("ok".utf8))
    }

    func testARequestThatCantWaitThatLongFailsAtOnceSayingWhen() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 429, headers: ["Retry-After": "2"]))
        let clock = TestClock()
        let network = layer(server, clock: clock)
        wait(for: [get(network, "first").expectation], timeout: 10)
        let hurried = get(network, "hurried", resourceTimeout: 1)
        wait(for: [hurried.expectation], timeout: 10)
        guard case .failure(.rateLimited(let until)) = hurried.results.first else {
            return XCTFail("\(hurried.results)")
        }
        XCTAssertEqual(until.timeIntervalSince(clock.date), 2, accuracy: 0.001)
        XCTAssertEqual(server.requestCount, 1)
    }

    func testTheRetryPolicysWaitRunsBesideThePauseNotAfterIt() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 429, headers: ["Retry-After": "2"]))
        server.handler = { _ in MockResponse(status: 200, text: "ok") }
        let clock = TestClock()
        let network = layer(
            server, clock: clock, retryPolicy: RetryPolicy(maximumAttempts: 2, maximumDelay: 5))
        let retried = get(network, "retried")
        XCTAssertTrue(clock.wait { $0.pendingDeadlines.contains { abs($0 - 2) < 0.001 } })
        let other = get(network, "other")
        clock.advance(by: 2)
        wait(for: [retried.expectation, other.expectation], timeout: 10)
        XCTAssertEqual(retried.results.first?.value, Data("ok".utf8))
        XCTAssertEqual(clock.elapsed, 2, "2 s in all, not 4")
        XCTAssertEqual(server.requestCount, 3)
    }

    func testAWaitingRequestsMetricsShowTheTimeQueued() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 429, headers: ["Retry-After": "2"]))
        server.handler = { _ in MockResponse(status: 200, text: "ok") }
        let clock = TestClock()
        let network = layer(server, clock: clock)
        wait(for: [get(network, "first").expectation], timeout: 10)
        let done = expectation(description: "metrics")
        let metrics = Locked<RequestMetrics?>(nil)
        network.send(
            NetworkRequest<Data>(urlString: "later"),
            successHandler: { response in
                metrics.withLock { $0 = response.metrics }
                done.fulfill()
            }, errorHandler: { _ in done.fulfill() })
        XCTAssertTrue(clock.wait { $0.pendingDeadlines.contains { abs($0 - 2) < 0.001 } })
        clock.advance(by: 2)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(metrics.withLock { $0 }?.queuedDuration ?? 0, 2, accuracy: 0.001)
    }

    func testAgainstTheServerInRealTimeNothingArrivesBeforeThePauseEnds() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 429, headers: ["Retry-After": "2"]))
        server.handler = { _ in MockResponse(status: 200, text: "ok") }
        let network = layer(server, clock: nil)
        wait(for: [get(network, "first").expectation], timeout: 10)
        let start = Date()
        // real wait: the layer itself holds the second request for the server's 2 s pause.
        let later = get(network, "later")
        wait(for: [later.expectation], timeout: 10)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 1.95)
        XCTAssertEqual(later.results.first?.value, Data("ok".utf8))
    }
}
