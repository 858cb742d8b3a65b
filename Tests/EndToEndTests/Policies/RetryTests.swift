import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `RetryPolicy` against a real server: which failures are retried, how long the layer waits, when it
/// stops, and a cancel during a wait.
final class RetryTests: XCTestCase {
    /// Small waits keep the tests fast.
    private let quick = RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, maximumDelay: 0.05)

    private func layer(
        _ server: MockServer, policy: RetryPolicy, timeout: TimeInterval = 5,
        interceptors: [any RequestInterceptor] = []
    ) -> NetworkLayer {
        NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: timeout, retryPolicy: policy,
            interceptors: interceptors)
    }

    /// A server that answers the first `failures` requests with `failure`, then `["ok"]`, noting arrivals.
    private func flakyServer(
        failures: Int, arrivals: Arrivals = Arrivals(), _ failure: @escaping @Sendable () -> MockResponse
    ) throws -> MockServer {
        let seen = Tally()
        return try MockServer.started(in: self) { _ in
            arrivals.record()
            seen.increment()
            return seen.value <= failures ? failure() : try .json(["ok"])
        }
    }

    private func get(_ network: NetworkLayer, _ recorder: OutcomeRecorder<[String]>) -> NetworkTask {
        network.get(urlString: "items", successHandler: recorder.success, errorHandler: recorder.failure)
    }

    // MARK: - Retry-After

    // A Retry-After in seconds and as an HTTP date: TestClockEndToEndTests, on a test clock (they
    // waited one and two real seconds here).

    func testRetryAfterZeroRetriesAtOnce() throws {
        // No interceptors: the policy decides where the transport reports the failure, and the next
        // attempt starts from there.
        let server = try flakyServer(failures: 2) { MockResponse(status: 429, headers: ["Retry-After": "0"]) }
        let network = layer(
            server, policy: RetryPolicy(maximumAttempts: 3, initialDelay: 5, maximumDelay: 10))
        let started = Date()
        let result = outcome(of: [String].self) { get(network, $0) }
        XCTAssertEqual(result?.value, ["ok"], "\(String(describing: result))")
        XCTAssertEqual(server.requestCount, 3)
        XCTAssertLessThan(Date().timeIntervalSince(started), 2, "no backoff: the server said now")
    }

    func testRetryAfterBeyondTheMaximumDelayMeansNoRetry() throws {
        let server = try flakyServer(failures: 1) { MockResponse(status: 503, headers: ["Retry-After": "3"]) }
        let network = layer(
            server, policy: RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, maximumDelay: 2))
        let started = Date()

        let result = outcome(of: [String].self) { get(network, $0) }

        XCTAssertEqual(result?.error?.statusCode, 503, "\(String(describing: result))")
        XCTAssertEqual(result?.error?.responseHeaders["retry-after"], "3", "the caller sees what was asked")
        XCTAssertEqual(server.requestCount, 1)
        XCTAssertLessThan(Date().timeIntervalSince(started), 1, "no wait either")
    }

    // MARK: - Caps and backoff

    func testARetryStormAgainstA503ServerStopsAtMaximumAttempts() throws {
        let arrivals = Arrivals()
        let server = try MockServer.started(in: self) { _ in
            arrivals.record()
            return MockResponse(status: 503, text: "overloaded")
        }
        let cap = 0.05
        let network = layer(
            server, policy: RetryPolicy(maximumAttempts: 5, initialDelay: 0.02, maximumDelay: cap))

        let result = outcome(of: [String].self) { get(network, $0) }

        XCTAssertEqual(result?.error?.statusCode, 503)
        XCTAssertEqual(result?.error?.responseBody, Data("overloaded".utf8), "the last attempt's error")
        XCTAssertEqual(server.requestCount, 5)
        // Each wait is at most the cap (checked exactly in RetryPolicyTests); a loopback round trip adds
        // well under 0.5 s, even on a busy machine.
        for gap in arrivals.gaps {
            XCTAssertGreaterThanOrEqual(gap, 0)
            XCTAssertLessThan(gap, cap + 0.5, "\(arrivals.gaps)")
        }
    }

    func testManyRequestsAgainstA503ServerEachStopAtTheCap() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 503) }
        let network = layer(server, policy: quick)
        let results = outcomes(of: [String].self, count: 10) { index, recorder in
            network.get(
                urlString: "items/\(index)", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        XCTAssertEqual(results.compactMap(\.error?.statusCode), Array(repeating: 503, count: 10))
        XCTAssertEqual(server.requestCount, 30)
        for index in 0..<10 {
            XCTAssertEqual(server.recordedRequests.filter { $0.path == "/items/\(index)" }.count, 3)
        }
    }

    func testRetriesUntilAnAttemptSucceeds() throws {
        let server = try flakyServer(failures: 2) { MockResponse(status: 500) }
        let network = layer(server, policy: quick)
        let result = outcome(of: [String].self) { get(network, $0) }
        XCTAssertEqual(result?.value, ["ok"])
        XCTAssertEqual(server.requestCount, 3)
    }

    func testNotRetriedStatusesEndAtOnce() throws {
        for status in [400, 401, 404, 422] {
            let server = try flakyServer(failures: 1) { MockResponse(status: status) }
            let network = layer(server, policy: quick)
            let result = outcome(of: [String].self) { get(network, $0) }
            XCTAssertEqual(result?.error?.statusCode, status)
            XCTAssertEqual(server.requestCount, 1, "\(status)")
        }
    }

    // MARK: - Methods

    func testPOSTIsNotRetriedUnlessOptedIn() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 503) }
        let plain = layer(server, policy: quick)
        let optedIn = layer(
            server,
            policy: RetryPolicy(
                maximumAttempts: 3, initialDelay: 0.01, maximumDelay: 0.05, retriesNonIdempotentRequests: true
            ))
        func post(_ network: NetworkLayer, _ path: String, method: HTTPMethod = .post) -> NetworkError? {
            outcome(of: EmptyResponse.self) { recorder in
                network.send(
                    NetworkRequest<EmptyResponse>(method: method, urlString: path, body: .json(["a": 1])),
                    successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
            }?.error
        }

        XCTAssertEqual(post(plain, "post")?.statusCode, 503)
        XCTAssertEqual(post(plain, "patch", method: .patch)?.statusCode, 503)
        XCTAssertEqual(post(optedIn, "post-opted-in")?.statusCode, 503)
        XCTAssertEqual(post(optedIn, "patch-opted-in", method: .patch)?.statusCode, 503)

        let counts = Dictionary(grouping: server.recordedRequests, by: \.path).mapValues(\.count)
        XCTAssertEqual(counts, ["/post": 1, "/patch": 1, "/post-opted-in": 3, "/patch-opted-in": 3])
        let bodies = server.recordedRequests.filter { $0.path == "/post-opted-in" }.map(\.bodyText)
        XCTAssertEqual(bodies, Array(repeating: #"{"a":1}"#, count: 3), "every attempt carries the body")
    }

    func testPUTAndDELETEAreRetried() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 503) }
        let network = layer(server, policy: quick)
        let put = outcome(of: Void.self) { recorder in
            network.put(
                urlString: "put", body: ["a": 1], successHandler: recorder.done,
                errorHandler: recorder.failure)
        }
        let delete = outcome(of: Void.self) { recorder in
            network.delete(urlString: "delete", successHandler: recorder.done, errorHandler: recorder.failure)
        }
        XCTAssertEqual(put?.error?.statusCode, 503)
        XCTAssertEqual(delete?.error?.statusCode, 503)
        let counts = Dictionary(grouping: server.recordedRequests, by: \.path).mapValues(\.count)
        XCTAssertEqual(counts, ["/put": 3, "/delete": 3])
    }

    // MARK: - Transport failures

    func testRetriesAfterATimeout() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse().withFault(.stall))
        server.enqueue(try .json(["ok"]))
        let network = layer(server, policy: quick, timeout: 0.3)
        let started = Date()

        let result = outcome(of: [String].self) { get(network, $0) }

        XCTAssertEqual(result?.value, ["ok"], "\(String(describing: result))")
        XCTAssertEqual(server.requestCount, 2)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.3, "the first attempt timed out")
    }

    func testATimeoutOnEveryAttemptEndsWithTimedOut() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse().withFault(.stall) }
        let network = layer(
            server, policy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.01, maximumDelay: 0.05),
            timeout: 0.3)
        let result = outcome(of: [String].self) { get(network, $0) }
        XCTAssertEqual(result?.error?.isTimedOut, true, "\(String(describing: result))")
        XCTAssertEqual(server.requestCount, 2)
    }

    func testRetriesAfterConnectionRefused() throws {
        let dead = try MockServer.started(in: self)
        let deadURL = dead.baseURL
        dead.stop()
        let live = try MockServer.started(in: self) { _ in try .json(["ok"]) }
        // Attempts 1 and 2 go to the stopped server's port; the third is pointed at a live server, so the
        // request ends in success only if the refused attempts were retried.
        let spy = SpyInterceptor()
        let network = NetworkLayer(
            baseURL: deadURL, sessionConfiguration: .ephemeral, timeout: 2, retryPolicy: quick,
            interceptors: [spy, MoveAfter(attempts: 2, spy: spy, url: live.baseURL)])

        let result = outcome(of: [String].self) { get(network, $0) }

        XCTAssertEqual(result?.value, ["ok"], "\(String(describing: result))")
        XCTAssertEqual(spy.adapts.value, 3)
        XCTAssertEqual(live.requestCount, 1)
    }

    func testConnectionRefusedOnEveryAttemptEndsWithCannotConnectToHost() throws {
        let dead = try MockServer.started(in: self)
        let deadURL = dead.baseURL
        dead.stop()
        let spy = SpyInterceptor()
        let network = NetworkLayer(
            baseURL: deadURL, sessionConfiguration: .ephemeral, timeout: 2, retryPolicy: quick,
            interceptors: [spy])
        let result = outcome(of: [String].self) { get(network, $0) }
        XCTAssertEqual(result?.error?.transportCode, .cannotConnectToHost, "\(String(describing: result))")
        XCTAssertEqual(spy.adapts.value, 3)
    }

    // MARK: - Cancel

    func testACancelDuringABackoffWaitEndsAtOnceAndSendsNothingMore() throws {
        let server = try MockServer.started(in: self) { _ in
            MockResponse(status: 503, headers: ["Retry-After": "1"])
        }
        // The spy signals once the policy has decided to wait (see SpyInterceptor).
        let spy = SpyInterceptor()
        let network = layer(
            server, policy: RetryPolicy(maximumAttempts: 3, initialDelay: 0.01, maximumDelay: 5),
            interceptors: [spy])
        QueueMark.mark(.main, as: "main")
        let recorder = OutcomeRecorder<[String]>(expectation(description: "a handler runs"))
        let task = get(network, recorder)
        recorder.markReturned()
        let waiting = expectation(description: "the layer waits")
        DispatchQueue.global().async { if spy.retries.wait(for: 1, timeout: 5) { waiting.fulfill() } }
        wait(for: [waiting], timeout: 5)
        let secondAttempt = expectation(description: "a second attempt reaches the server")
        secondAttempt.isInverted = true
        server.handler = { _ in
            secondAttempt.fulfill()
            return MockResponse(status: 503, headers: ["Retry-After": "1"])
        }

        let cancelledAt = Date()
        task.cancel()
        wait(for: [recorder.expectation], timeout: 1)
        let handlerAfter = Date().timeIntervalSince(cancelledAt)

        XCTAssertEqual(recorder.results.count, 1)
        XCTAssertEqual(recorder.results.first?.error?.isCancelled, true, "\(recorder.results)")
        XCTAssertLessThan(handlerAfter, 0.3, "at once, not when the one-second wait ends")
        // Past the end of the wait: still nothing more sent.
        wait(for: [secondAttempt], timeout: 1.5)
        XCTAssertEqual(server.requestCount, 1)
        XCTAssertEqual(spy.adapts.value, 1, "no further attempt was even adapted")
        XCTAssertEqual(recorder.results.count, 1)
    }

    func testALayerWithItsOwnSessionReleasedDuringABackoffWaitStillFinishesTheRequest() throws {
        // Regression: the layer invalidated its own session when it went away, and the attempt after the
        // wait was then started on the invalidated session, which stops the process ("Session
        // invalidated"). The session now lasts until the layer's last request has ended.
        let server = try flakyServer(failures: 1) { MockResponse(status: 503) }
        weak var weakLayer: NetworkLayer?
        let result = outcome(of: [String].self) { recorder in
            let network = NetworkLayer(
                baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 5,
                // An interceptor's wait counts against the policy's maximum too.
                retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.01, maximumDelay: 1),
                interceptors: [Decide503(wait: 0.2)])
            weakLayer = network
            return get(network, recorder)
        }
        XCTAssertEqual(result?.value, ["ok"], "\(String(describing: result))")
        XCTAssertEqual(server.requestCount, 2)
        XCTAssertNil(weakLayer, "the request kept its session, not its layer")
    }

    // MARK: - Overrides

    private struct RetriedEndpoint: Endpoint {
        var path: String { "items" }
        var method: HTTPMethod { .get }
        var retryPolicy: RetryPolicy? {
            RetryPolicy(maximumAttempts: 2, initialDelay: 0.01, maximumDelay: 0.05)
        }
    }

    private struct NeverRetriedEndpoint: Endpoint {
        var path: String { "items" }
        var method: HTTPMethod { .get }
        var retryPolicy: RetryPolicy? { RetryPolicy.none }
    }

    func testAnEndpointsPolicyOverridesTheLayers() throws {
        let retrying = try flakyServer(failures: 1) { MockResponse(status: 503) }
        let plainLayer = layer(retrying, policy: .none)
        let retried = outcome(of: [String].self) { recorder in
            plainLayer.request(
                RetriedEndpoint(), successHandler: recorder.success, errorHandler: recorder.failure)
        }
        XCTAssertEqual(retried?.value, ["ok"])
        XCTAssertEqual(retrying.requestCount, 2)

        let failing = try flakyServer(failures: 1) { MockResponse(status: 503) }
        let retryingLayer = layer(failing, policy: quick)
        let notRetried = outcome(of: [String].self) { recorder in
            retryingLayer.request(
                NeverRetriedEndpoint(), successHandler: recorder.success, errorHandler: recorder.failure)
        }
        XCTAssertEqual(notRetried?.error?.statusCode, 503)
        XCTAssertEqual(failing.requestCount, 1)
    }

    func testARequestsPolicyOverridesTheLayers() throws {
        let failing = try flakyServer(failures: 1) { MockResponse(status: 503) }
        let retryingLayer = layer(failing, policy: quick)
        var neverRetried = NetworkRequest<[String]>(urlString: "items")
        neverRetried.retryPolicy = RetryPolicy.none
        let notRetried = outcome(of: [String].self) { recorder in
            retryingLayer.send(
                neverRetried, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
        XCTAssertEqual(notRetried?.error?.statusCode, 503)
        XCTAssertEqual(failing.requestCount, 1)

        let flaky = try flakyServer(failures: 1) { MockResponse(status: 503) }
        let plainLayer = layer(flaky, policy: .none)
        var retriedRequest = NetworkRequest<[String]>(urlString: "items")
        retriedRequest.retryPolicy = quick
        let retried = outcome(of: [String].self) { recorder in
            plainLayer.send(
                retriedRequest, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure
            )
        }
        XCTAssertEqual(retried?.value, ["ok"])
        XCTAssertEqual(flaky.requestCount, 2)
    }

    func testAnEndpointsPolicyOnTheRequestMadeFromItCanStillBeChanged() {
        var request = NetworkRequest<[String]>(RetriedEndpoint())
        XCTAssertEqual(request.retryPolicy?.maximumAttempts, 2)
        request.retryPolicy = nil
        XCTAssertNil(request.retryPolicy, "nil: the layer's policy")
    }
}

/// Points attempts after the first `attempts` (as counted by `spy`, which runs first) at `url`.
private struct MoveAfter: RequestInterceptor {
    let attempts: Int
    let spy: SpyInterceptor
    let url: URL

    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        // The spy counts after its completion returns, so this attempt is number `adapts + 1`.
        guard spy.adapts.value + 1 > attempts, let path = request.url?.path else {
            return completion(.success(request))
        }
        var moved = request
        moved.url = url.appendingPathComponent(path)
        completion(.success(moved))
    }
}

/// Asks for a retry after `wait` seconds on a 503.
private struct Decide503: RequestInterceptor {
    let wait: TimeInterval

    func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {
        completion(attempt.error.statusCode == 503 ? .retryAfter(wait) : .doNotRetry)
    }
}
