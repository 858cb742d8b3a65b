import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A layer on a real transport driven by a test clock (issue 33): the waits and deadlines the layer keeps
/// run when the test advances the clock, whatever the sockets do meanwhile.
final class TestClockEndToEndTests: XCTestCase {
    private let queue = DispatchQueue(label: "test-clock.callbacks")

    /// A clock on a whole second, so the HTTP dates built from it are exact.
    private func wholeSecondClock() -> TestClock {
        TestClock(startingAt: Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
    }

    private func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }

    private func get(_ network: NetworkLayer, _ recorder: OutcomeRecorder<[String]>) {
        network.get(urlString: "items", successHandler: recorder.success, errorHandler: recorder.failure)
    }

    // MARK: - Retry-After against a server

    func testRetryAfterInSecondsWaitsForTheClockNotForRealTime() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 503, headers: ["Retry-After": "1"]))
        server.enqueue(try .json(["ok"]))
        let clock = TestClock()
        let network = NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue,
            retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.01, maximumDelay: 5))
        let recorder = OutcomeRecorder<[String]>(expectation(description: "outcome"))
        get(network, recorder)

        XCTAssertTrue(clock.wait { $0.waits.count == 1 }, "the 503 asks for a wait")
        XCTAssertEqual(clock.waits, [1], "the header's second, not the 10 ms backoff")
        XCTAssertEqual(server.requestCount, 1)
        clock.advance(by: 1)
        wait(for: [recorder.expectation], timeout: 10)
        XCTAssertEqual(recorder.results.first?.value, ["ok"])
        XCTAssertEqual(server.requestCount, 2)
    }

    func testRetryAfterAsAnHTTPDateIsCountedFromTheClocksDate() throws {
        let clock = wholeSecondClock()
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 503, headers: ["Retry-After": httpDate(clock.date + 2)]))
        server.enqueue(try .json(["ok"]))
        let network = NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue,
            retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.01, maximumDelay: 5))
        let recorder = OutcomeRecorder<[String]>(expectation(description: "outcome"))
        get(network, recorder)

        XCTAssertTrue(clock.wait { $0.waits.count == 1 })
        XCTAssertEqual(clock.waits, [2])
        clock.advance(by: 2)
        wait(for: [recorder.expectation], timeout: 10)
        XCTAssertEqual(recorder.results.first?.value, ["ok"])
    }

    // MARK: - Deadlines

    func testATimeoutOf30SecondsFiresAt30SecondsOfTestTime() throws {
        let server = try MockServer.started(in: self)
        var stalled = MockResponse(status: 200)
        stalled.fault = .stall
        server.enqueue(stalled)
        let clock = TestClock()
        let network = NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue,
            timeout: 30)
        let recorder = OutcomeRecorder<[String]>(expectation(description: "outcome"))
        get(network, recorder)
        // The idle deadline is armed when the transfer starts, and the total deadline with the call.
        XCTAssertTrue(clock.wait { $0.pendingDeadlines.contains(30) }, "\(clock.pendingDeadlines)")

        clock.advance(by: 29.9)
        XCTAssertEqual(recorder.results.count, 0, "timed out early")
        XCTAssertEqual(clock.pendingDeadlines.first ?? 0, 0.1, accuracy: 1e-6)
        clock.advance(by: 0.1)
        wait(for: [recorder.expectation], timeout: 10)
        guard case .failure(.timedOut) = recorder.results.first else {
            return XCTFail("\(recorder.results)")
        }
    }

    func testARefreshThatNeverEndsFailsAtItsTimeoutOfTestTime() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 401))
        let clock = TestClock()
        let refreshes = Tally()
        let authenticator = BearerTokenAuthenticator(accessToken: "old", refreshTimeout: 20) { _ in
            refreshes.increment()  // and never completes
        }
        let network = NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue,
            interceptors: [authenticator])
        let recorder = OutcomeRecorder<[String]>(expectation(description: "outcome"))
        get(network, recorder)
        XCTAssertTrue(clock.wait { _ in refreshes.value == 1 }, "the 401 starts a refresh")
        XCTAssertTrue(clock.wait { $0.pendingDeadlines.contains(20) }, "\(clock.pendingDeadlines)")

        clock.advance(by: 19.9)
        XCTAssertEqual(recorder.results.count, 0, "gave up on the refresh early")
        clock.advance(by: 0.1)
        wait(for: [recorder.expectation], timeout: 10)
        XCTAssertNotNil(recorder.results.first?.error, "\(recorder.results)")
    }

    // MARK: - Cache freshness

    func testAMaxAgeOf60IsServedAt59AndRevalidatedAt61() throws {
        let clock = wholeSecondClock()
        let server = try MockServer.started(in: self)
        let fresh = ["Cache-Control": "max-age=60", "Date": httpDate(clock.date), "ETag": "\"v1\""]
        server.handler = { request in
            request.header("If-None-Match") == "\"v1\""
                ? MockResponse(status: 304, headers: fresh) : try .json(["v1"], headers: fresh)
        }
        let network = NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue)
        func status() -> CacheStatus? {
            let recorder = OutcomeRecorder<NetworkResponse<[String]>>(expectation(description: "get"))
            network.send(
                NetworkRequest<[String]>(urlString: "items"), successHandler: recorder.success,
                errorHandler: recorder.failure)
            wait(for: [recorder.expectation], timeout: 10)
            return recorder.results.first?.value?.cacheStatus
        }

        XCTAssertEqual(status(), .network)
        clock.advance(by: 59)
        XCTAssertEqual(status(), .hit, "fresh for 60 s")
        XCTAssertEqual(server.requestCount, 1)
        clock.advance(by: 2)
        XCTAssertEqual(status(), .revalidated, "stale after 60 s")
        XCTAssertEqual(server.requestCount, 2)
    }

    // MARK: - Streams

    func testAStreamsReconnectionWaitsTheServersRetryTimeOnTheClock() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.serverSentEvents([ServerSentEvent(data: "a", id: "1", retry: 3)]))
        server.enqueue(MockResponse(status: 204))
        let clock = TestClock()
        let network = NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue)
        let done = expectation(description: "summary")
        let summary = Locked<StreamSummary?>(nil)
        network.stream(
            NetworkRequest(urlString: "feed"), as: .serverSentEvents, eventHandler: { _ in },
            completionHandler: { result in
                summary.withLock { $0 = try? result.get() }
                done.fulfill()
            })

        XCTAssertTrue(
            clock.wait { $0.waits.contains(3) }, "the server's retry: field is the wait: \(clock.waits)")
        XCTAssertEqual(server.requestCount, 1)
        clock.advance(by: 3)
        wait(for: [done], timeout: 10)
        XCTAssertEqual(summary.withLock { $0?.reconnectCount }, 1)
        XCTAssertEqual(server.requestCount, 2)
    }

    func testAStalledStreamTimesOutAtItsIdleTimeoutOfTestTime() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.serverSentEvents([ServerSentEvent(data: "a")], ending: .stall))
        let clock = TestClock()
        let network = NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue)
        let first = expectation(description: "first event")
        let done = expectation(description: "outcome")
        let outcome = Locked<Result<StreamSummary, NetworkError>?>(nil)
        network.stream(
            NetworkRequest(urlString: "feed"), as: .serverSentEvents,
            options: ServerSentEventsOptions(reconnects: false, idleTimeout: 15),
            eventHandler: { _ in first.fulfill() },
            completionHandler: { result in
                outcome.withLock { $0 = result }
                done.fulfill()
            })
        wait(for: [first], timeout: 10)
        XCTAssertTrue(clock.wait { $0.pendingDeadlines.contains(15) }, "\(clock.pendingDeadlines)")

        clock.advance(by: 14.9)
        XCTAssertNil(outcome.withLock { $0 }, "idle timeout fired early")
        clock.advance(by: 0.1)
        wait(for: [done], timeout: 10)
        guard case .failure(.timedOut) = outcome.withLock({ $0 }) else {
            return XCTFail("\(String(describing: outcome.withLock { $0 }))")
        }
    }

    // MARK: - Queues that target the main queue

    /// A progress handler on the main queue: the throttle's delivery runs on a queue that targets the
    /// main queue, which an advance from the main thread can't wait for (it hung): the throttle's timer
    /// hops there by itself.
    @MainActor
    func testAdvancingFromTheMainThreadRunsAProgressThrottleOnTheMainQueue() async throws {
        let server = try MockServer.started(in: self)
        var reply = MockResponse(
            headers: ["Content-Type": "application/octet-stream"], body: Data(count: 400_000))
        // Paced, so the first progress call is delivered before the next figures arrive.
        reply.throttle = MockResponse.Throttle(bytes: 20_000, period: 0.02)
        server.enqueue(reply)
        let clock = TestClock()
        let network = NetworkLayer(clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        var request = NetworkRequest.download(
            urlString: "file", to: try makeFolder().appendingPathComponent("file.bin"))
        let reports = Locked<[Int64]>([])
        request.progressHandler = { progress in reports.withLock { $0.append(progress.completedBytes) } }
        let download = Task { try await network.send(request).value }

        let throttled = await clock.wait { $0.pendingDeadlines.contains { $0 < 1 } }
        XCTAssertTrue(throttled, "a second update within 1/30 s of test time waits for the clock")
        XCTAssertTrue(Thread.isMainThread)
        clock.advance(by: 1)
        _ = try await download.value
        XCTAssertEqual(reports.withLock { $0.last }, 400_000)
    }

    // MARK: - Parity with real time

    /// The same retries on a real clock with small waits and on a test clock with long ones: the same
    /// attempts in the same order, and the same outcome.
    func testTheTestClockAndRealTimeGiveTheSameAttemptsAndOutcome() throws {
        func run(clock: TestClock?, delay: TimeInterval) throws -> (attempts: Int, value: [String]?) {
            let server = try MockServer.started(in: self)
            server.enqueue(MockResponse(status: 503))
            server.enqueue(MockResponse(status: 502))
            server.enqueue(try .json(["ok"]))
            let policy = RetryPolicy(maximumAttempts: 3, initialDelay: delay, maximumDelay: delay * 4)
            let network =
                clock.map {
                    NetworkLayer(
                        clock: $0, baseURL: server.baseURL, sessionConfiguration: .ephemeral,
                        callbackQueue: queue, retryPolicy: policy)
                }
                ?? NetworkLayer(
                    baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue,
                    retryPolicy: policy)
            let recorder = OutcomeRecorder<[String]>(expectation(description: "outcome"))
            get(network, recorder)
            if let clock {
                for retry in 1...2 {
                    XCTAssertTrue(clock.wait { $0.waits.count == retry })
                    XCTAssertEqual(server.requestCount, retry, "a retry went out before its wait was over")
                    clock.advance(by: clock.waits[retry - 1])
                }
            }
            wait(for: [recorder.expectation], timeout: 10)
            return (server.requestCount, recorder.results.first?.value)
        }
        let real = try run(clock: nil, delay: 0.005)
        let virtual = try run(clock: TestClock(), delay: 20)
        XCTAssertEqual(real.attempts, 3)
        XCTAssertEqual(virtual.attempts, real.attempts)
        XCTAssertEqual(virtual.value, real.value)
        XCTAssertEqual(real.value, ["ok"])
    }
}
