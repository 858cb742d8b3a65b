import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The policy stage in the real pipeline, answered in-process by `StubTransport`.
final class PolicyPipelineTests: XCTestCase {
    private struct Stamp: RequestInterceptor {
        func adapt(
            _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
        ) {
            var request = request
            request.setValue("stamped", forHTTPHeaderField: "X-Stamp")
            completion(.success(request))
        }
    }

    private let stubs = StubTransport()

    func testInterceptorsAdaptWhatTheTransportReceives() {
        stubs.stub(.get, "https://api.example.com/items", with: .json(["a"]))
        let network = stubs.makeNetworkLayer(
            interceptors: [Stamp(), BearerTokenAuthenticator(accessToken: "abc") { _ in }])
        let result = outcome(of: [String].self) { recorder in
            network.get(
                urlString: "https://api.example.com/items", successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
        XCTAssertEqual(result?.value, ["a"])
        XCTAssertEqual(stubs.recordedRequests.first?.header("X-Stamp"), "stamped")
        XCTAssertEqual(stubs.recordedRequests.first?.header("Authorization"), "Bearer abc")
    }

    func testALostConnectionIsRetriedUpToTheCap() {
        stubs.stub(.get, "https://api.example.com/items", with: .failure(URLError(.networkConnectionLost)))
        let network = stubs.makeNetworkLayer(
            retryPolicy: RetryPolicy(maximumAttempts: 4, initialDelay: 0.01, maximumDelay: 0.02))
        let result = outcome(of: [String].self) { recorder in
            network.get(
                urlString: "https://api.example.com/items", successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
        XCTAssertEqual(result?.error?.transportCode, .networkConnectionLost, "\(String(describing: result))")
        XCTAssertEqual(stubs.recordedRequests.count, 4)
    }

    /// An unknown error is no evidence that sending again helps (Alamofire's
    /// testThatRetryPolicyDoesNotRetryErrorsThatAreNotRetryable): the transport turned every one into a
    /// lost connection, which the policy retries.
    func testAnUnknownTransportErrorIsNotRetried() {
        stubs.stub(.get, "https://api.example.com/items", with: .failure(URLError(.unknown)))
        let network = stubs.makeNetworkLayer(
            retryPolicy: RetryPolicy(maximumAttempts: 4, initialDelay: 0.01, maximumDelay: 0.02))
        let result = outcome(of: [String].self) { recorder in
            network.get(
                urlString: "https://api.example.com/items", successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
        XCTAssertEqual(result?.error?.transportCode, .unknown, "\(String(describing: result))")
        XCTAssertEqual(stubs.recordedRequests.count, 1)
    }

    func testADecodingFailureIsNotRetried() {
        stubs.stub(.get, "https://api.example.com/items", with: .json(["not": "an array"]))
        let network = stubs.makeNetworkLayer(retryPolicy: .default)
        let result = outcome(of: [String].self) { recorder in
            network.get(
                urlString: "https://api.example.com/items", successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
        guard case .decodingFailed? = result?.error else { return XCTFail("\(String(describing: result))") }
        XCTAssertEqual(stubs.recordedRequests.count, 1)
    }
}
