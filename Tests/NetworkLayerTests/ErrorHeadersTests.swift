import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `NetworkError.headers`: the reply's headers without a pattern match.
final class ErrorHeadersTests: PipelineTestCase {
    func testAFinal503sRetryAfterIsReadWithoutAPatternMatch() {
        stubs.stub(.get, .any, with: StubResponse(status: 503, headers: ["Retry-After": "120"]))
        var request = NetworkRequest<Data>(urlString: "busy")
        request.retryPolicy = RetryPolicy(maximumAttempts: 3, maximumDelay: 30)
        let error = outcome(of: Data.self) { recorder in
            network.send(
                request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }?.error
        XCTAssertEqual(error?.statusCode, 503, "\(String(describing: error))")
        XCTAssertEqual(error?.headers?["retry-after"], "120", "a wait beyond maximumDelay: no retry")
        XCTAssertEqual(stubs.recordedRequests.count, 1)
    }

    func testOnlyAnErrorWithAReplyHasHeaders() {
        let headers: ResponseHeaders = ["Content-Type": "text/html", "X-Request-ID": "7"]
        XCTAssertEqual(
            NetworkError.unacceptableStatusCode(500, body: Data(), headers: headers).headers, headers)
        XCTAssertEqual(
            NetworkError.unacceptableContentType("text/html", body: Data(), headers: headers).headers?[
                "x-request-id"], "7")
        for error: NetworkError in [
            .timedOut, .cancelled, .transport(URLError(.notConnectedToInternet)), .emptyResponse,
            .decodingFailed(CocoaError(.coderReadCorrupt), body: Data()), "custom",
        ] {
            XCTAssertNil(error.headers, "\(error)")
        }
    }
}
