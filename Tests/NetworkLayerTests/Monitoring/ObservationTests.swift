import Foundation
import NetworkTestSupport
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a monitor learns of each request beyond its attempts (issue 50): when it begins, its account, how
/// many callers shared it, its time queued behind a budget or a rate limit, on the policies, decoding and
/// being delivered, on the layer's clock. Each through a real layer against a ``MockServer``.
final class ObservationTests: XCTestCase {
    private let queue = DispatchQueue(label: "observation.callbacks")

    private func startedServer() throws -> MockServer {
        let server = MockServer()
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    /// A server whose every reply waits until the test signals `held` once for it.
    private func serverHoldingReplies() throws -> (MockServer, DispatchSemaphore) {
        let server = try startedServer()
        let held = DispatchSemaphore(value: 0)
        // real wait: each reply is held until the test lets it go (bounded by the timeout).
        server.handler = { _ in
            _ = held.wait(timeout: .now() + 10)
            return MockResponse(status: 200, text: "ok")
        }
        return (server, held)
    }

    private func layer(
        _ server: MockServer, clock: TestClock? = nil, monitors: [any NetworkMonitor],
        interceptors: [any RequestInterceptor] = [], retryPolicy: RetryPolicy = .none,
        scheduling: RequestScheduling = .default
    ) -> NetworkLayer {
        NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue,
            timeout: 1000, resourceTimeout: 1000, retryPolicy: retryPolicy, interceptors: interceptors,
            monitors: monitors, cache: nil, scheduling: scheduling)
    }

    /// A layer with a budget of one request per origin, which a first request (`/first`) takes: its reply,
    /// as every one, waits until the test signals `held`.
    private func budgetTakenByAFirstRequest(sharing: Bool = true) throws -> (
        server: MockServer, held: DispatchSemaphore, clock: TestClock, monitor: ObservationRecorder,
        network: NetworkLayer
    ) {
        let (server, held) = try serverHoldingReplies()
        let clock = TestClock()
        let monitor = ObservationRecorder()
        let network = layer(
            server, clock: clock, monitors: [monitor],
            scheduling: RequestScheduling(sharesIdenticalRequests: sharing, maximumRequestsPerOrigin: 1))
        get(network, "first")
        XCTAssertNotNil(server.takeRequest(timeout: 5))
        return (server, held, clock, monitor, network)
    }

    /// Sends GET `path`, its outcome ignored: the monitor tells what the test checks.
    @discardableResult
    private func get(_ network: NetworkLayer, _ path: String, account: String? = nil) -> NetworkTask {
        var request = NetworkRequest<Data>(urlString: path)
        request.account = account
        return network.send(request, successHandler: { _ in }, errorHandler: { _ in })
    }

    func testEveryCallerOfOneSharedRequestIsToldHowManyShared() throws {
        let (server, held) = try serverHoldingReplies()
        let monitor = ObservationRecorder()
        let network = layer(server, monitors: [monitor])
        let finished = monitor.expectFinishes(3, self)
        get(network, "shared")
        get(network, "shared")
        XCTAssertNotNil(server.takeRequest(timeout: 5))
        held.signal()
        wait(for: [monitor.expectFinishes(2, self)], timeout: 10)
        get(network, "alone")
        held.signal()
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(server.requestCount, 2)
        XCTAssertEqual(monitor.metrics(for: "/shared").map(\.sharedCallers), [2, 2])
        XCTAssertEqual(monitor.metrics(for: "/alone").map(\.sharedCallers), [1])
    }

    /// `sharedCallers` tells the last attempt: a retry that goes alone after a shared attempt served one.
    func testARetryGoingAloneAfterASharedAttemptServedOneCaller() throws {
        let server = try startedServer()
        let held = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var replies = 0
        // real wait: the first reply (a 503) is held until both callers joined (bounded by the timeout).
        server.handler = { _ in
            replies += 1
            guard replies == 1 else { return MockResponse(status: 200, text: "ok") }
            _ = held.wait(timeout: .now() + 10)
            return MockResponse(status: 503)
        }
        let monitor = ObservationRecorder()
        let network = layer(server, monitors: [monitor])
        let finished = monitor.expectFinishes(2, self)
        var retried = NetworkRequest<Data>(urlString: "flaky")
        retried.retryPolicy = RetryPolicy(maximumAttempts: 2, initialDelay: 0.001)
        network.send(retried, successHandler: { _ in }, errorHandler: { _ in })
        get(network, "flaky")
        XCTAssertNotNil(server.takeRequest(timeout: 5))
        held.signal()
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(server.requestCount, 2, "one shared attempt, then the retry alone")
        let metrics = monitor.metrics(for: "/flaky").sorted { $0.attempts < $1.attempts }
        XCTAssertEqual(metrics.map(\.attempts), [1, 2])
        XCTAssertEqual(metrics.map(\.sharedCallers), [2, 1])
    }

    func testATimeHeldByARateLimitIsRateLimitQueueTime() throws {
        let server = try startedServer()
        server.enqueue(.tooManyRequests(retryAfter: 2))
        server.handler = { _ in MockResponse(status: 200, text: "ok") }
        let clock = TestClock()
        let monitor = ObservationRecorder()
        let network = layer(server, clock: clock, monitors: [monitor])
        let first = monitor.expectFinishes(1, self)
        get(network, "first")
        wait(for: [first], timeout: 10)
        let later = monitor.expectFinishes(1, self)
        get(network, "later")
        XCTAssertTrue(clock.wait { $0.pendingDeadlines.contains { abs($0 - 2) < 0.001 } })
        _ = clock.advance(by: 2)
        wait(for: [later], timeout: 10)
        let metrics = try XCTUnwrap(monitor.metrics(for: "/later").first)
        XCTAssertEqual(metrics.rateLimitQueuedDuration, 2, accuracy: 0.001)
        XCTAssertEqual(metrics.budgetQueuedDuration, 0)
        XCTAssertEqual(metrics.queuedDuration, 2, accuracy: 0.001)
    }

    /// A request waiting behind its origin's budget is told begun while it waits, before its reply: a live
    /// view shows it queued. Its wait is budget time.
    func testARequestQueuedBehindTheBudgetIsToldBegunThenItsWaitIsBudgetQueueTime() throws {
        let (server, held, clock, monitor, network) = try budgetTakenByAFirstRequest()
        let finished = monitor.expectFinishes(2, self)
        let begun = monitor.expectCreated(1, self)
        get(network, "second")
        wait(for: [begun], timeout: 10)
        XCTAssertEqual(monitor.created.last?.url?.path, "/second")
        XCTAssertEqual(server.requestCount, 1, "still queued")
        _ = clock.advance(by: 1.5)
        held.signal()
        XCTAssertNotNil(server.takeRequest(timeout: 5))
        held.signal()
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(
            monitor.log.filter { $0.hasSuffix("/second") },
            ["create /second", "start /second", "finish /second"])
        let metrics = try XCTUnwrap(monitor.metrics(for: "/second").first)
        XCTAssertEqual(metrics.budgetQueuedDuration, 1.5, accuracy: 0.001)
        XCTAssertEqual(metrics.rateLimitQueuedDuration, 0)
        XCTAssertEqual(monitor.metrics(for: "/first").first?.queuedDuration, 0)
    }

    func testARetriedRequestCountsItsAttempts() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(status: 503))
        server.handler = { _ in MockResponse(status: 200, text: "ok") }
        let monitor = ObservationRecorder()
        let network = layer(
            server, monitors: [monitor], retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.001))
        let finished = monitor.expectFinishes(1, self)
        get(network, "retried")
        wait(for: [finished], timeout: 10)
        XCTAssertEqual(monitor.metrics(for: "/retried").map(\.attempts), [2])
        XCTAssertEqual(monitor.started.map(\.number), [1, 2])
    }

    /// An interceptor that takes 0.7 s on the layer's clock to adapt each attempt (as one waiting for a
    /// token would).
    private struct SlowAdapter: RequestInterceptor {
        let clock: TestClock
        func adapt(
            _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
        ) {
            _ = clock.advance(by: 0.7)
            completion(.success(request))
        }
    }

    func testTheInterceptorsTimeIsPolicyWaitTime() throws {
        let server = try startedServer()
        server.handler = { _ in MockResponse(status: 200, text: "ok") }
        let clock = TestClock()
        let monitor = ObservationRecorder()
        let network = layer(
            server, clock: clock, monitors: [monitor], interceptors: [SlowAdapter(clock: clock)])
        let finished = monitor.expectFinishes(1, self)
        get(network, "adapted")
        wait(for: [finished], timeout: 10)
        let metrics = try XCTUnwrap(monitor.metrics(for: "/adapted").first)
        XCTAssertEqual(metrics.policyWaitDuration, 0.7, accuracy: 0.001)
        XCTAssertEqual(metrics.queuedDuration, 0)
    }

    /// An interceptor that never completes (as one waiting for a token that never comes).
    private struct StuckAdapter: RequestInterceptor {
        func adapt(
            _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
        ) {}
    }

    /// A round of the interceptors the hook time limit ends is policy wait time all the same.
    func testARoundOfTheInterceptorsThatTimesOutIsPolicyWaitTime() throws {
        let server = try startedServer()
        let clock = TestClock()
        let monitor = ObservationRecorder()
        let network = layer(server, clock: clock, monitors: [monitor], interceptors: [StuckAdapter()])
        let finished = monitor.expectFinishes(1, self)
        var request = NetworkRequest<Data>(urlString: "stuck")
        request.timeout = 5
        network.send(request, successHandler: { _ in }, errorHandler: { _ in })
        XCTAssertTrue(clock.wait { $0.pendingDeadlines.contains { abs($0 - 5) < 0.001 } })
        _ = clock.advance(by: 5)
        wait(for: [finished], timeout: 10)
        let finish = try XCTUnwrap(monitor.finishes.first)
        guard case .failure(.timedOut) = finish.result else { return XCTFail("\(finish.result)") }
        XCTAssertEqual(finish.metrics.policyWaitDuration, 5, accuracy: 0.001)
        XCTAssertEqual(server.requestCount, 0)
    }

    /// A request cancelled while it waits behind its origin's budget counts the time it waited.
    func testARequestCancelledWhileQueuedCountsItsWait() throws {
        try checkCancelledWhileQueuedCountsItsWait(sharing: false)
    }

    /// The same when it shares: the caller leaving its shared request, the last, is handed the time that
    /// request waited.
    func testASharingRequestCancelledWhileQueuedCountsItsWait() throws {
        try checkCancelledWhileQueuedCountsItsWait(sharing: true)
    }

    private func checkCancelledWhileQueuedCountsItsWait(sharing: Bool) throws {
        let (_, held, clock, monitor, network) = try budgetTakenByAFirstRequest(sharing: sharing)
        let begun = monitor.expectCreated(1, self)
        let cancelled = monitor.expectFinishes(1, self)
        let second = get(network, "second")
        wait(for: [begun], timeout: 10)
        _ = clock.advance(by: 1.5)
        second.cancel()
        wait(for: [cancelled], timeout: 10)
        held.signal()
        let finish = try XCTUnwrap(monitor.finishes.first)
        XCTAssertEqual(finish.request.url?.path, "/second")
        guard case .failure(.cancelled) = finish.result else { return XCTFail("\(finish.result)") }
        XCTAssertEqual(finish.metrics.queuedDuration, 1.5, accuracy: 0.001)
        XCTAssertEqual(finish.metrics.budgetQueuedDuration, 1.5, accuracy: 0.001)
        XCTAssertEqual(finish.metrics.rateLimitQueuedDuration, 0)
    }

    /// Of two callers of one shared request queued behind the budget, the last to leave is handed all the
    /// time it waited, although the other started it.
    func testTheLastCallerToLeaveAQueuedSharedRequestCountsItsWait() throws {
        let (_, held, clock, monitor, network) = try budgetTakenByAFirstRequest()
        let begun = monitor.expectCreated(2, self)
        let starter = get(network, "second")
        let joiner = get(network, "second")
        wait(for: [begun], timeout: 10)
        _ = clock.advance(by: 0.5)
        let starterLeft = monitor.expectFinishes(1, self)
        starter.cancel()
        wait(for: [starterLeft], timeout: 10)
        _ = clock.advance(by: 1)
        let joinerLeft = monitor.expectFinishes(1, self)
        joiner.cancel()
        wait(for: [joinerLeft], timeout: 10)
        held.signal()
        let last = try XCTUnwrap(monitor.finishes.last)
        guard case .failure(.cancelled) = last.result else { return XCTFail("\(last.result)") }
        XCTAssertEqual(last.metrics.queuedDuration, 1.5, accuracy: 0.001)
        XCTAssertEqual(last.metrics.budgetQueuedDuration, 1.5, accuracy: 0.001)
    }

    /// A value whose decoding takes 0.25 s on the test's clock.
    private struct SlowToDecode: Decodable {
        nonisolated(unsafe) static var clock: TestClock?
        init(from decoder: any Decoder) throws {
            _ = Self.clock?.advance(by: 0.25)
        }
    }

    func testTheTimeToDecodeIsDecodeDuration() throws {
        let server = try startedServer()
        server.handler = { _ in
            MockResponse(status: 200, text: "{}").addingHeader("Content-Type", "application/json")
        }
        let clock = TestClock()
        SlowToDecode.clock = clock
        defer { SlowToDecode.clock = nil }
        let monitor = ObservationRecorder()
        let network = layer(server, clock: clock, monitors: [monitor])
        let finished = monitor.expectFinishes(1, self)
        network.send(
            NetworkRequest<SlowToDecode>(urlString: "decoded"), successHandler: { _ in },
            errorHandler: { _ in })
        wait(for: [finished], timeout: 10)
        let metrics = try XCTUnwrap(monitor.metrics(for: "/decoded").first)
        XCTAssertEqual(metrics.decodeDuration, 0.25, accuracy: 0.001)
        XCTAssertEqual(metrics.deliveryDuration, 0)
        XCTAssertEqual(metrics.duration, 0.25, accuracy: 0.001)
    }

    /// A cancel settles the outcome at once; its handler waits for the callback queue, held 0.4 s on the
    /// layer's clock.
    func testTheWaitForTheCallbackQueueIsDeliveryDuration() throws {
        let (server, held) = try serverHoldingReplies()
        let clock = TestClock()
        let monitor = ObservationRecorder()
        let network = layer(server, clock: clock, monitors: [monitor])
        let finished = monitor.expectFinishes(1, self)
        let task = get(network, "delivered")
        XCTAssertNotNil(server.takeRequest(timeout: 5))
        let busy = DispatchSemaphore(value: 0)
        // real wait: the callback queue is busy until the test has moved the clock.
        queue.async { _ = busy.wait(timeout: .now() + 10) }
        task.cancel()
        _ = clock.advance(by: 0.4)
        busy.signal()
        wait(for: [finished], timeout: 10)
        held.signal()
        let metrics = try XCTUnwrap(monitor.metrics(for: "/delivered").first)
        XCTAssertEqual(metrics.deliveryDuration, 0.4, accuracy: 0.001)
        XCTAssertEqual(metrics.duration, 0.4, accuracy: 0.001)
    }

    /// Without a monitor the layer times none of it: a handler's metrics say 0.
    func testWithoutAMonitorNothingMoreIsTimed() throws {
        let server = try startedServer()
        server.handler = { _ in
            MockResponse(status: 200, text: "{}").addingHeader("Content-Type", "application/json")
        }
        let clock = TestClock()
        SlowToDecode.clock = clock
        defer { SlowToDecode.clock = nil }
        let network = layer(server, clock: clock, monitors: [], interceptors: [SlowAdapter(clock: clock)])
        let done = expectation(description: "answered")
        nonisolated(unsafe) var seen: RequestMetrics?
        network.send(
            NetworkRequest<SlowToDecode>(urlString: "quiet"),
            successHandler: {
                seen = $0.metrics
                done.fulfill()
            }, errorHandler: { _ in done.fulfill() })
        wait(for: [done], timeout: 10)
        let metrics = try XCTUnwrap(seen)
        XCTAssertEqual(metrics.policyWaitDuration, 0)
        XCTAssertEqual(metrics.decodeDuration, 0)
        XCTAssertEqual(metrics.duration, 0.95, accuracy: 0.001, "the time passed all the same")
    }

    func testTheAccountIsTheRequestsElseTheLayers() throws {
        let server = try startedServer()
        server.handler = { _ in MockResponse(status: 200, text: "ok") }
        let monitor = ObservationRecorder()
        let network = layer(server, monitors: [monitor])
        network.account = "bob"
        let finished = monitor.expectFinishes(2, self)
        get(network, "ann", account: "ann")
        get(network, "bob")
        wait(for: [finished], timeout: 10)
        let accounts = Dictionary(
            uniqueKeysWithValues: monitor.created.map { ($0.url?.path ?? "", $0.account) })
        XCTAssertEqual(accounts, ["/ann": "ann", "/bob": "bob"])
        XCTAssertEqual(Set(monitor.finishes.map(\.request.account)), ["ann", "bob"])
    }

    func testALayerWithoutACacheTellsNoCacheStatus() throws {
        let server = try startedServer()
        server.handler = { _ in MockResponse(status: 200, text: "ok") }
        let monitor = ObservationRecorder()
        let network = layer(server, monitors: [monitor])
        let finished = monitor.expectFinishes(1, self)
        get(network, "uncached")
        wait(for: [finished], timeout: 10)
        let metrics = try XCTUnwrap(monitor.metrics(for: "/uncached").first)
        XCTAssertNil(metrics.cacheStatus)
        XCTAssertNil(metrics.cacheReason)
    }
}
