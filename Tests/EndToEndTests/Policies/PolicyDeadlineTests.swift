import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// No request waits forever on a policy: each ends within its deadline, with exactly one handler call.
/// The deadlines run on a test clock (issue 33): a 30-second limit is checked at 29.9 and 30 seconds of
/// test time, in milliseconds of real time.
final class PolicyDeadlineTests: XCTestCase {
    /// Keeps `adapt`'s completion, for the test to call late or never.
    private final class SilentAdapt: RequestInterceptor {
        let completion = Locked<(@Sendable (Result<URLRequest, NetworkError>) -> Void)?>(nil)
        let request = Locked<URLRequest?>(nil)
        func adapt(
            _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
        ) {
            self.request.withLock { $0 = request }
            self.completion.withLock { $0 = completion }
        }
    }

    /// Never calls back from `retry`.
    private final class SilentRetry: RequestInterceptor {
        let asked = Locked(false)
        func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {
            asked.withLock { $0 = true }
        }
    }

    private struct WaitAfter: RequestInterceptor {
        let delay: TimeInterval
        func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {
            completion(.retryAfter(delay))
        }
    }

    private let queue = DispatchQueue(label: "policy-deadline.callbacks")

    private func layer(
        _ server: MockServer, timeout: TimeInterval, clock: TestClock? = nil,
        _ interceptors: [any RequestInterceptor]
    ) -> NetworkLayer {
        guard let clock else {
            return NetworkLayer(
                baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: timeout,
                interceptors: interceptors)
        }
        return NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue,
            timeout: timeout, interceptors: interceptors)
    }

    /// Sends a request on a layer whose policy never answers in time, and checks it fails with
    /// `timedOut` at 30 s of `clock`'s time and not before.
    private func expectTimeoutAt30Seconds(
        _ network: NetworkLayer, on clock: TestClock, armedWhen ready: @escaping () -> Bool = { true }
    ) {
        let recorder = OutcomeRecorder<Data>(expectation(description: "outcome"))
        network.send(
            NetworkRequest<Data>(urlString: "items"), successHandler: { recorder.success($0.value) },
            errorHandler: recorder.failure)
        XCTAssertTrue(clock.wait { ready() && $0.pendingDeadlines.contains(30) }, "\(clock.pendingDeadlines)")
        clock.advance(by: 29.9)
        XCTAssertEqual(recorder.results.count, 0, "ended before its deadline")
        clock.advance(by: 0.1)
        wait(for: [recorder.expectation], timeout: 10)
        XCTAssertEqual(recorder.results.first?.error?.message, NetworkError.timedOut.message)
        XCTAssertEqual(recorder.results.count, 1)
    }

    func testAnAdaptThatNeverAnswersEndsAtTheRequestsTimeout() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 204) }
        let clock = TestClock()
        let network = layer(server, timeout: 30, clock: clock, [SilentAdapt()])
        expectTimeoutAt30Seconds(network, on: clock)
        XCTAssertEqual(server.requestCount, 0)
    }

    func testALateAdaptAnswerSendsNothingAndCallsNoSecondHandler() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 204) }
        let clock = TestClock()
        let adapt = SilentAdapt()
        let network = layer(server, timeout: 30, clock: clock, [adapt])
        expectTimeoutAt30Seconds(network, on: clock)
        let request = try XCTUnwrap(adapt.request.withLock { $0 })
        adapt.completion.withLock { $0 }?(.success(request))
        // real wait: a negative check; a request the late answer let through would reach the server
        // within milliseconds.
        let after = expectation(description: "past the late answer")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { after.fulfill() }
        wait(for: [after], timeout: 5)
        XCTAssertEqual(server.requestCount, 0)
    }

    func testARetryThatNeverAnswersEndsAtTheRequestsTimeout() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 500) }
        let clock = TestClock()
        let retry = SilentRetry()
        let network = layer(server, timeout: 30, clock: clock, [retry])
        // The hook's deadline is armed before it is asked, and the attempt's own ended with its reply.
        expectTimeoutAt30Seconds(network, on: clock, armedWhen: { retry.asked.withLock { $0 } })
        XCTAssertEqual(server.requestCount, 1)
    }

    func testADelayBeyondTheMaximumMeansNoRetry() throws {
        for delay in [1e308, .infinity, .nan, 31] {
            let server = try MockServer.started(in: self) { _ in MockResponse(status: 503) }
            let network = layer(server, timeout: 5, [WaitAfter(delay: delay)])
            let started = Date()
            let result = outcome(of: Data.self, timeout: 5) { recorder in
                network.send(
                    NetworkRequest<Data>(urlString: "items"), successHandler: { recorder.success($0.value) },
                    errorHandler: recorder.failure)
            }
            XCTAssertEqual(result?.error?.statusCode, 503, "\(delay)")
            XCTAssertLessThan(Date().timeIntervalSince(started), 3, "\(delay)")
            XCTAssertEqual(server.requestCount, 1, "\(delay)")
        }
    }
}
