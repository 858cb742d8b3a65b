import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A layer makes its origin scheduler at the first pause a reply asks. A request under way then (its
/// stages assembled before) must still honour the hold on its next attempt, as when every request passed
/// a gate from the start.
final class LateHoldTests: XCTestCase {
    private let queue = DispatchQueue(label: "late-hold.callbacks")

    private func get(_ network: NetworkLayer, _ path: String) -> OutcomeRecorder<Data> {
        let recorder = OutcomeRecorder<Data>(expectation(description: path))
        network.send(
            NetworkRequest<Data>(urlString: path), successHandler: { recorder.success($0.value) },
            errorHandler: recorder.failure)
        return recorder
    }

    private func layer(_ server: MockServer, clock: TestClock) -> NetworkLayer {
        NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue,
            retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.5, maximumDelay: 5), cache: nil)
    }

    /// Fulfilled by a request the server gets while it is set: none may arrive during a hold.
    private func noRequestDuringTheHold() -> (XCTestExpectation, Locked<XCTestExpectation?>) {
        let early = expectation(description: "no request while the origin is held")
        early.isInverted = true
        return (early, Locked(early))
    }

    /// A 503 whose rate-limit fields ask 2 s (no `Retry-After`, so the retry policy's backoff is at most
    /// 0.5 s): the retry waits beside the pause.
    func testARetryOfTheRequestWhoseReplyAskedAPauseWaitsForIt() throws {
        let server = try MockServer.started(in: self)
        let (early, watching) = noRequestDuringTheHold()
        server.enqueue(
            MockResponse(
                status: 503, headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "2"], body: Data()))
        server.handler = { _ in
            watching.withLock { $0?.fulfill() }
            return MockResponse(status: 200, text: "ok")
        }
        let clock = TestClock()
        watching.withLock { $0 = nil }
        let network = layer(server, clock: clock)
        let retried = get(network, "retried")
        XCTAssertTrue(clock.wait { _ in server.requestCount == 1 })
        XCTAssertTrue(clock.wait { $0.pendingDeadlines.contains { $0 < 1.5 } }, "the backoff is pending")

        watching.withLock { $0 = early }
        _ = clock.advance(by: 1)
        wait(for: [early], timeout: 0.5)
        watching.withLock { $0 = nil }
        _ = clock.advance(by: 1)

        wait(for: [retried.expectation], timeout: 10)
        XCTAssertEqual(retried.results.first?.value, Data("ok".utf8))
        XCTAssertEqual(server.requestCount, 2)
        withExtendedLifetime(network) {}
    }

    /// Two requests in flight when the first 429 arrives: the other's retry (after a 500) waits for the
    /// hold too.
    func testARequestInFlightWhenTheFirstPauseArrivesHonoursItOnItsRetry() throws {
        let server = try MockServer.started(in: self)
        let (early, watching) = noRequestDuringTheHold()
        let answeredB = Locked(false)
        let sawB = expectation(description: "b's first attempt reached the server")
        server.handler = { request in
            watching.withLock { $0?.fulfill() }
            if request.path.hasSuffix("/a") { return .tooManyRequests(retryAfter: 2) }
            let first = answeredB.withLock { answered in
                defer { answered = true }
                return !answered
            }
            if first { sawB.fulfill() }
            return first ? MockResponse(status: 500, text: "boom") : MockResponse(status: 200, text: "ok")
        }
        let clock = TestClock()
        let network = layer(server, clock: clock)
        // Both first attempts arrive before the window opens. b goes first: were a's 429 to land before b
        // reached the gate, b would wait for the hold there instead of being in flight when it begins.
        watching.withLock { $0 = nil }
        let b = get(network, "b")
        wait(for: [sawB], timeout: 10)
        let a = get(network, "a")
        // Both replied: a's retry waits 2 s (Retry-After), b's its backoff.
        XCTAssertTrue(
            clock.wait {
                $0.pendingDeadlines.contains { $0 < 1.5 }
                    && $0.pendingDeadlines.contains { abs($0 - 2) < 0.001 }
            })
        XCTAssertEqual(server.requestCount, 2)

        watching.withLock { $0 = early }
        _ = clock.advance(by: 1)
        wait(for: [early], timeout: 0.5)
        watching.withLock { $0 = nil }
        _ = clock.advance(by: 1)

        wait(for: [a.expectation, b.expectation], timeout: 10)
        XCTAssertEqual(b.results.first?.value, Data("ok".utf8))
        withExtendedLifetime(network) {}
    }
}
