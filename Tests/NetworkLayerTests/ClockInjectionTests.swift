import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every time-based decision of a layer reads and schedules through the clock it owns: with a test
/// clock injected, a wait ends, a deadline passes and a cached reply ages only when the clock moves,
/// however long or short the real wait.
final class ClockInjectionTests: XCTestCase {
    private func startedServer() throws -> MockServer {
        let server = MockServer()
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    private func layer(
        _ server: MockServer, on clock: TestClock, timeout: TimeInterval = 1000,
        retryPolicy: RetryPolicy = .none, interceptors: [any RequestInterceptor] = [],
        cache: ResponseCache? = nil, sessionConfiguration: URLSessionConfiguration? = .ephemeral
    ) -> NetworkLayer {
        NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: sessionConfiguration,
            timeout: timeout,
            resourceTimeout: 100, retryPolicy: retryPolicy, interceptors: interceptors, cache: cache)
    }

    /// Waits, without moving the clock, until something is scheduled `seconds` ahead on it.
    private func waitForTimer(on clock: TestClock, in seconds: TimeInterval) {
        XCTAssertTrue(clock.wait { $0.pendingDeadlines.contains { abs($0 - seconds) < 0.001 } })
    }

    /// A `Retry-After: 30` wait is on the clock: nothing is sent again until it has moved 30 s, and then
    /// at once; the metrics count the clock's time.
    func testARetryWaitEndsWhenTheClockPassesIt() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(status: 503, headers: ["Retry-After": "30"]))
        server.enqueue(try .json(["ok"]))
        let clock = TestClock()
        let network = layer(
            server, on: clock,
            retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.01, maximumDelay: 60))

        let result = outcome(of: NetworkResponse<[String]>.self) { recorder in
            network.send(
                NetworkRequest<[String]>(method: .get, urlString: "items"),
                successHandler: recorder.success, errorHandler: recorder.failure)
        } beforeWaiting: {
            waitForTimer(on: clock, in: 30)
            clock.advance(by: 29)
            XCTAssertEqual(server.requestCount, 1, "sent again before the wait was over")
            XCTAssertTrue(clock.pendingDeadlines.contains { abs($0 - 1) < 0.001 }, "the wait is still armed")
            clock.advance(by: 2)
        }

        let response = try XCTUnwrap(try result?.get())
        XCTAssertEqual(response.value, ["ok"])
        XCTAssertEqual(server.requestCount, 2)
        // The retry goes out when the clock reaches 30 s; its reply may arrive before the advance moves the
        // clock on to 31 s, so 30 s is what the metrics can promise (real time is well under a second).
        XCTAssertGreaterThanOrEqual(
            try XCTUnwrap(response.metrics).duration, 30, "the metrics measure the layer's clock")
    }

    /// A `max-age=60` reply is fresh while the clock's date is 59 s on, stale at 61 s: no real wait.
    func testACachedReplyAgesWithTheClock() throws {
        let server = try startedServer()
        server.enqueue(try MockResponse.json(["one"]).cacheControl("max-age=60"))
        server.enqueue(try MockResponse.json(["two"]).cacheControl("max-age=60"))
        let clock = TestClock()
        let network = layer(server, on: clock, cache: ResponseCache())
        func load() -> Result<NetworkResponse<[String]>, NetworkError>? {
            outcome(of: NetworkResponse<[String]>.self) { recorder in
                network.send(
                    NetworkRequest<[String]>(method: .get, urlString: "items"),
                    successHandler: recorder.success, errorHandler: recorder.failure)
            }
        }

        XCTAssertEqual(try load()?.get().value, ["one"])
        clock.advance(by: 59)
        let fresh = try XCTUnwrap(try load()?.get())
        XCTAssertEqual(fresh.value, ["one"])
        XCTAssertEqual(fresh.cacheStatus, .hit, "fresh 59 s on the clock")
        XCTAssertEqual(server.requestCount, 1)
        clock.advance(by: 2)
        let stale = try XCTUnwrap(try load()?.get())
        XCTAssertEqual(stale.value, ["two"], "stale 61 s on the clock: the network answers")
        XCTAssertEqual(server.requestCount, 2)
    }

    /// The total time limit (100 s here) is a deadline on the clock: a reply the server holds back for
    /// real seconds ends with `.timedOut` as soon as the clock passes it, not before.
    func testTheTotalDeadlinePassesWithTheClock() throws {
        let server = try startedServer()
        server.enqueue(try MockResponse.json(["late"]).delayed(beforeHeaders: 30))
        let clock = TestClock()
        let network = layer(server, on: clock)

        let result = outcome(of: [String].self) { recorder in
            network.get(urlString: "items", successHandler: recorder.success, errorHandler: recorder.failure)
        } beforeWaiting: {
            waitForTimer(on: clock, in: 100)
            clock.advance(by: 99)
            XCTAssertTrue(clock.pendingDeadlines.contains { abs($0 - 1) < 0.001 }, "the limit passed early")
            clock.advance(by: 2)
        }

        guard case .timedOut = result?.error else { return XCTFail("\(String(describing: result))") }
    }

    /// The idle timeout of a request on the session every layer without a configuration shares is kept
    /// on the clock of the layer that sent it.
    func testAnIdleTimeoutOnTheSharedSessionPassesWithTheLayersClock() throws {
        let server = try startedServer()
        server.enqueue(try MockResponse.json(["late"]).delayed(beforeHeaders: 30))
        let clock = TestClock()
        let network = layer(server, on: clock, timeout: 10, sessionConfiguration: nil)
        XCTAssertTrue(network.transport === SessionTransport.shared)

        let result = outcome(of: [String].self) { recorder in
            network.get(urlString: "items", successHandler: recorder.success, errorHandler: recorder.failure)
        } beforeWaiting: {
            waitForTimer(on: clock, in: 10)
            clock.advance(by: 11)
        }

        guard case .timedOut = result?.error else { return XCTFail("\(String(describing: result))") }
        XCTAssertEqual(clock.pendingDeadlines, [], "the idle deadline kept after the request ended")
    }

    /// An interceptor that never answers is given the request's timeout on the clock, then the request
    /// ends with `.timedOut`.
    func testAPolicyDeadlinePassesWithTheClock() throws {
        let server = try startedServer()
        let clock = TestClock()
        let network = layer(server, on: clock, timeout: 50, interceptors: [Silent()])

        let result = outcome(of: [String].self) { recorder in
            network.get(urlString: "items", successHandler: recorder.success, errorHandler: recorder.failure)
        } beforeWaiting: {
            waitForTimer(on: clock, in: 50)
            clock.advance(by: 51)
        }

        guard case .timedOut = result?.error else { return XCTFail("\(String(describing: result))") }
        XCTAssertEqual(server.requestCount, 0)
    }

    /// The real clock runs its timers in deadline order, each on its queue, skips a cancelled one, and
    /// keeps no dispatch timer armed once none is left.
    func testTheSystemClockRunsItsTimersInDeadlineOrder() {
        let clock = SystemClock()
        let queue = DispatchQueue(label: "ClockInjectionTests.timers")
        let order = Locked<[Int]>([])
        let fired = expectation(description: "the timers ran")
        fired.expectedFulfillmentCount = 3
        for (number, delay) in [(3, 0.06), (1, 0.02), (2, 0.04)] {
            clock.run(after: delay, on: queue) {
                dispatchPrecondition(condition: .onQueue(queue))
                order.withLock { $0.append(number) }
                fired.fulfill()
            }
        }
        clock.run(after: 0.03, on: queue) { XCTFail("a cancelled timer ran") }.cancel()
        wait(for: [fired], timeout: 10)
        XCTAssertEqual(order.withLock { $0 }, [1, 2, 3])
        XCTAssertEqual(clock.armedCount, 0)
        let disarmed = expectation(for: NSPredicate { _, _ in !clock.isArmed }, evaluatedWith: nil)
        wait(for: [disarmed], timeout: 10)
    }
}

/// An interceptor whose `adapt` never calls back.
private struct Silent: RequestInterceptor {
    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {}
}
