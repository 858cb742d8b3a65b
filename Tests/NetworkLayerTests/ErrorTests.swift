import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class ErrorTests: PipelineTestCase {
    func testInvalidURLsFailBeforeAnyIO() {
        let network = stubs.makeNetworkLayer()
        for string in [
            "", "not a url", "users", "file:///etc/passwd", "ftp://example.com/x", "data:text/plain,hi",
        ] {
            let error = outcome(of: [Employee].self) {
                network.get(urlString: string, successHandler: $0.success, errorHandler: $0.failure)
            }?.error
            guard case .invalidURL(let reported)? = error else {
                return XCTFail("\(string) gave \(String(describing: error))")
            }
            XCTAssertEqual(reported, string)
        }
        XCTAssertTrue(stubs.recordedRequests.isEmpty)
    }

    func testUnencodableBodyIsEncodingFailed() {
        struct Reading: Encodable { let value = Double.nan }
        let error = outcome(of: Void.self) {
            network.post(urlString: "r", body: Reading(), successHandler: $0.done, errorHandler: $0.failure)
        }?.error
        guard case .encodingFailed(let underlying)? = error else {
            return XCTFail("gave \(String(describing: error))")
        }
        XCTAssertTrue(underlying is EncodingError)
        XCTAssertTrue(stubs.recordedRequests.isEmpty)
    }

    func testURLErrorsMapToTheirCases() {
        let cases: [(URLError.Code, (NetworkError) -> Bool)] = [
            (.timedOut, { if case .timedOut = $0 { true } else { false } }),
            (.cancelled, { if case .cancelled = $0 { true } else { false } }),
            (
                .cannotConnectToHost,
                { if case .transport(let e) = $0 { e.code == .cannotConnectToHost } else { false } }
            ),
            (
                .notConnectedToInternet,
                { if case .transport(let e) = $0 { e.code == .notConnectedToInternet } else { false } }
            ),
            (
                .networkConnectionLost,
                { if case .transport(let e) = $0 { e.code == .networkConnectionLost } else { false } }
            ),
            (
                .secureConnectionFailed,
                { if case .transport(let e) = $0 { e.code == .secureConnectionFailed } else { false } }
            ),
        ]
        for (code, matches) in cases {
            stubs.stub(.get, .any, with: .failure(URLError(code)))
            let error = outcome(of: [Employee].self) {
                network.get(urlString: "e", successHandler: $0.success, errorHandler: $0.failure)
            }?.error
            XCTAssertTrue(error.map(matches) ?? false, "\(code.rawValue) gave \(String(describing: error))")
        }
    }

    func testUnstubbedRequestFailsLoudlyNamingTheRequestAndStubs() {
        stubs.stub(.post, "https://api.example.com/v1/other", with: StubResponse())
        let error = outcome(of: [Employee].self) {
            network.get(urlString: "missing", successHandler: $0.success, errorHandler: $0.failure)
        }?.error
        guard case .transport(let urlError)? = error else {
            return XCTFail("gave \(String(describing: error))")
        }
        let text = urlError.userInfo[NSLocalizedDescriptionKey] as? String ?? ""
        XCTAssertTrue(text.contains("GET https://api.example.com/v1/missing"), text)
        XCTAssertTrue(text.contains("POST https://api.example.com/v1/other"), text)
    }

    func testEveryCaseHasAMessageAndDescription() {
        let all: [NetworkError] = [
            .invalidURL("x"),
            .encodingFailed(EncodingError.invalidValue(0, .init(codingPath: [], debugDescription: ""))),
            .timedOut, .cancelled, .transport(URLError(.cannotFindHost)),
            .transport(URLError(.badServerResponse)),
            .unacceptableStatusCode(404, body: Data("nope".utf8), headers: [:]), .emptyResponse,
            .decodingFailed(
                DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "")), body: Data()),
            .invalidResponse, .custom("Unable to parse response"), .custom(""), .tooManyReconnects(5),
        ]
        for error in all {
            XCTAssertFalse(error.message.isEmpty, "\(error)")
            XCTAssertEqual(error.errorDescription, error.message)
            XCTAssertEqual(error.localizedDescription, error.message)
            XCTAssertFalse(error.description.isEmpty)
        }
        XCTAssertTrue(
            NetworkError.unacceptableStatusCode(404, body: Data(), headers: [:]).message.contains("404"))
        XCTAssertNil(NetworkError.timedOut.statusCode)
        XCTAssertNil(NetworkError.timedOut.responseBody)
    }

    func testStringLiteralMakesCustom() {
        let error: NetworkError = "Unable to parse response"
        guard case .custom("Unable to parse response") = error else { return XCTFail("gave \(error)") }
        XCTAssertEqual(error.message, "Unable to parse response")
    }
}
