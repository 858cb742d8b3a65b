import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// No request waits forever on a policy: each ends within its deadline, with exactly one handler call.
final class PolicyDeadlineTests: XCTestCase {
    /// Never calls back from `adapt`, or calls back after `lateBy` seconds.
    private struct SilentAdapt: RequestInterceptor {
        var lateBy: TimeInterval?
        func adapt(
            _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
        ) {
            guard let lateBy else { return }
            DispatchQueue.global().asyncAfter(deadline: .now() + lateBy) { completion(.success(request)) }
        }
    }

    /// Never calls back from `retry`.
    private struct SilentRetry: RequestInterceptor {
        func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {}
    }

    private struct WaitAfter: RequestInterceptor {
        let delay: TimeInterval
        func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {
            completion(.retryAfter(delay))
        }
    }

    private func layer(
        _ server: MockServer, timeout: TimeInterval, _ interceptors: [any RequestInterceptor]
    ) -> NetworkLayer {
        NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: timeout,
            interceptors: interceptors)
    }

    func testAnAdaptThatNeverAnswersEndsAtTheRequestsTimeout() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 204) }
        let network = layer(server, timeout: 0.5, [SilentAdapt()])
        let started = Date()
        let result = outcome(of: Data.self, timeout: 5) { recorder in
            network.send(
                NetworkRequest<Data>(urlString: "items"), successHandler: { recorder.success($0.value) },
                errorHandler: recorder.failure)
        }
        XCTAssertEqual(result?.error?.message, NetworkError.timedOut.message)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        XCTAssertEqual(server.requestCount, 0)
    }

    func testALateAdaptAnswerSendsNothingAndCallsNoSecondHandler() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 204) }
        let network = layer(server, timeout: 0.3, [SilentAdapt(lateBy: 0.6)])
        let result = outcome(of: Data.self, timeout: 5) { recorder in
            network.send(
                NetworkRequest<Data>(urlString: "items"), successHandler: { recorder.success($0.value) },
                errorHandler: recorder.failure)
        }
        XCTAssertEqual(result?.error?.message, NetworkError.timedOut.message)
        // The late answer arrives at 0.6 s; a request it let through would reach the server soon after.
        let after = expectation(description: "past the late answer")
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.6) { after.fulfill() }
        wait(for: [after], timeout: 5)
        XCTAssertEqual(server.requestCount, 0)
    }

    func testARetryThatNeverAnswersEndsAtTheRequestsTimeout() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 500) }
        let network = layer(server, timeout: 0.5, [SilentRetry()])
        let result = outcome(of: Data.self, timeout: 5) { recorder in
            network.send(
                NetworkRequest<Data>(urlString: "items"), successHandler: { recorder.success($0.value) },
                errorHandler: recorder.failure)
        }
        XCTAssertEqual(result?.error?.message, NetworkError.timedOut.message)
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
