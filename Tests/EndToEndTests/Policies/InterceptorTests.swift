import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Interceptors against a real server: order, failures, where they run, their retry decisions.
final class InterceptorTests: XCTestCase {
    /// Sets a header; the value may depend on what earlier interceptors did.
    private struct SetHeader: RequestInterceptor {
        let name: String
        let value: @Sendable (URLRequest) -> String

        func adapt(
            _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
        ) {
            var request = request
            request.setValue(value(request), forHTTPHeaderField: name)
            completion(.success(request))
        }
    }

    /// Fails every request in `adapt`.
    private struct Refuse: RequestInterceptor {
        func adapt(
            _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
        ) {
            completion(.failure("No signing key"))
        }
    }

    /// Answers every failed attempt with `decision`, counting them.
    private struct Decide: RequestInterceptor {
        let decision: @Sendable (FailedAttempt) -> RetryDecision
        let seen = Log<FailedAttempt>()

        func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {
            seen.append(attempt)
            completion(decision(attempt))
        }
    }

    private func layer(_ server: MockServer, _ interceptors: [any RequestInterceptor]) -> NetworkLayer {
        NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 5, interceptors: interceptors)
    }

    private func get(_ network: NetworkLayer, _ recorder: OutcomeRecorder<Echo>) -> NetworkTask {
        network.get(urlString: "items", successHandler: recorder.success, errorHandler: recorder.failure)
    }

    func testInterceptorsRunInOrderEachSeeingTheOnesBefore() throws {
        let server = try MockServer.echoing(in: self)
        let network = layer(
            server,
            [
                SetHeader(name: "X-First") { _ in "1" },
                SetHeader(name: "X-Second") {
                    "after \($0.value(forHTTPHeaderField: "X-First") ?? "nothing")"
                },
                SetHeader(name: "X-First") { _ in "overridden by the third" },
            ])

        let echo = outcome(of: Echo.self) { get(network, $0) }?.value

        XCTAssertEqual(echo?.headers["x-second"], "after 1")
        XCTAssertEqual(echo?.headers["x-first"], "overridden by the third")
        XCTAssertEqual(echo?.headers["accept"], "application/json", "the layer's own headers are there first")
    }

    func testAnAdaptFailureReachesTheErrorHandlerAndNothingIsSent() throws {
        let server = try MockServer.echoing(in: self)
        let after = SpyInterceptor()
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 5, retryPolicy: .default,
            interceptors: [Refuse(), after])

        let result = outcome(of: Echo.self) { get(network, $0) }

        XCTAssertEqual(result?.error?.message, "No signing key", "\(String(describing: result))")
        XCTAssertEqual(after.adapts.value, 0, "later interceptors are skipped")
        XCTAssertEqual(after.retries.value, 0, "an adapt failure is not an attempt to retry")
        XCTAssertEqual(server.requestCount, 0)
    }

    func testAdaptRunsOffTheMainQueueForRequestsStartedOnIt() throws {
        let server = try MockServer.echoing(in: self)
        let spy = SpyInterceptor()
        let network = layer(server, [spy])
        XCTAssertTrue(Thread.isMainThread, "the test starts its requests on the main thread")

        for _ in 0..<3 {
            let echo = outcome(of: Echo.self) { get(network, $0) }
            XCTAssertNotNil(echo?.value)
        }
        XCTAssertEqual(spy.onMainThread.all, [false, false, false])
    }

    func testRetryHooksRunOffTheMainQueueAndSeeEveryEarlierError() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 503) }
        let decide = Decide { $0.number < 3 ? .retry : .doNotRetry }
        let spy = SpyInterceptor()
        let network = layer(server, [spy, decide])

        let result = outcome(of: Echo.self) { get(network, $0) }

        XCTAssertEqual(result?.error?.statusCode, 503)
        XCTAssertEqual(
            server.requestCount, 3, "the interceptor asked for two retries, without a retry policy")
        XCTAssertEqual(decide.seen.all.map(\.number), [1, 2, 3])
        XCTAssertEqual(decide.seen.all.map(\.earlierErrors.count), [0, 1, 2])
        XCTAssertEqual(spy.onMainThread.all.filter { $0 }.count, 0, "adapt and retry, off the main thread")
    }

    func testAnInterceptorCanFailARequestWithAnotherError() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 503) }
        let network = layer(server, [Decide { _ in .fail("Maintenance until 6 pm") }])
        let result = outcome(of: Echo.self) { get(network, $0) }
        XCTAssertEqual(result?.error?.message, "Maintenance until 6 pm")
        XCTAssertEqual(server.requestCount, 1)
    }

    func testAnInterceptorsRetryAfterWaits() throws {
        let arrivals = Arrivals()
        let seen = Tally()
        let server = try MockServer.started(in: self) { request in
            arrivals.record()
            seen.increment()
            return seen.value == 1 ? MockResponse(status: 409) : try .json(Echo(request))
        }
        let network = layer(server, [Decide { $0.error.statusCode == 409 ? .retryAfter(0.3) : .doNotRetry }])
        let result = outcome(of: Echo.self) { get(network, $0) }
        XCTAssertNotNil(result?.value, "\(String(describing: result))")
        XCTAssertGreaterThanOrEqual(arrivals.gaps.first ?? 0, 0.3)
    }

    func testEndlessRetryRequestsStopAtTheLayersHardLimit() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 500) }
        let network = layer(server, [Decide { _ in .retry }])
        let result = outcome(of: Echo.self) { get(network, $0) }
        XCTAssertEqual(result?.error?.statusCode, 500)
        XCTAssertEqual(server.requestCount, 16, "an interceptor that always says retry can't loop forever")
    }

    func testEveryAttemptIsAdaptedAfresh() throws {
        let server = try MockServer.started(in: self) { request in
            request.header("X-Attempt") == "3" ? try .json(Echo(request)) : MockResponse(status: 502)
        }
        let counter = Tally()
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 5,
            retryPolicy: RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, maximumDelay: 0.05),
            interceptors: [
                SetHeader(name: "X-Attempt") { _ in
                    counter.increment()
                    return String(counter.value)
                }
            ])
        let echo = outcome(of: Echo.self) { get(network, $0) }?.value
        XCTAssertEqual(echo?.headers["x-attempt"], "3")
        XCTAssertEqual(server.recordedRequests.map { $0.header("X-Attempt") }, ["1", "2", "3"])
    }
}
