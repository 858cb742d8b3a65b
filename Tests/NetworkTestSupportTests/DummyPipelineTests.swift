import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// ``DummyNetworkLayer`` runs the layer's own pipeline over answers given in process: what the real layer
/// checks after building a request (each attempt as interceptors leave it, the reply's type and size),
/// the dummy checks too, without a rule of its own.
final class DummyPipelineTests: XCTestCase {
    private let ann = Person(name: "Ann")

    /// Gives the request a method the real layer refuses to send.
    private struct InjectingInterceptor: RequestInterceptor {
        func adapt(
            _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
        ) {
            var request = request
            request.httpMethod = "GET\r\nX-Injected: yes"
            completion(.success(request))
        }
    }

    func testAnAttemptAnInterceptorMadeInvalidIsRefusedAsTheRealLayerRefusesIt() {
        let network = DummyNetworkLayer(
            baseURL: URL(string: "https://api.example.com"), interceptors: [InjectingInterceptor()])
        network.successResponse = ann
        let got = Captured<Person>()

        network.get(urlString: "me", successHandler: got.success, errorHandler: got.failure)

        XCTAssertEqual(got.errors.count, 1)
        guard case .invalidRequest(let reason)? = got.errors.first else {
            return XCTFail("expected invalidRequest, got \(got.errorDescriptions)")
        }
        XCTAssertTrue(reason.hasSuffix("is not valid."), reason)
        XCTAssertTrue(network.recordedRequests.isEmpty, "never sent, so never recorded")
    }

    func testAReplyOfATypeTheRequestDoesNotAcceptFails() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.stub(
            .get, "page", returning: Data("<html></html>".utf8), statusCode: 200,
            headers: ["Content-Type": "text/html"])
        let got = Captured<NetworkResponse<Data>>()
        var request = NetworkRequest<Data>(urlString: "page")
        request.acceptableContentTypes = ["application/json"]

        network.send(request, successHandler: got.success, errorHandler: got.failure)

        XCTAssertEqual(got.values.count, 0)
        guard case .unacceptableContentType(let type, let body, _)? = got.errors.first else {
            return XCTFail("expected unacceptableContentType, got \(got.errorDescriptions)")
        }
        XCTAssertEqual(type, "text/html")
        XCTAssertEqual(body, Data("<html></html>".utf8))
    }

    func testAStubThatNamesNoTypeAnswersInTheTypeTheRequestAccepts() throws {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.successResponse = ann
        let got = Captured<NetworkResponse<Person>>()
        var request = NetworkRequest<Person>(urlString: "me")
        request.acceptableContentTypes = ["application/vnd.api+json", "application/json"]

        network.send(request, successHandler: got.success, errorHandler: got.failure)

        let response = try XCTUnwrap(got.values.first, "\(got.errorDescriptions)")
        XCTAssertEqual(response.value, ann)
        XCTAssertEqual(response.headers["content-type"], "application/vnd.api+json")
    }

    func testAReplyOverTheRequestsSizeLimitFails() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.stub(.get, "big", returning: Data(repeating: 65, count: 1025))
        let got = Captured<Data>()
        var request = NetworkRequest<Data>(urlString: "big")
        request.maximumResponseSize = 1024

        network.send(request, successHandler: { got.success($0.value) }, errorHandler: got.failure)

        guard case .transport(let error)? = got.errors.first else {
            return XCTFail("expected the size-limit error, got \(got.errorDescriptions)")
        }
        XCTAssertEqual(error.code, .dataLengthExceedsMaximum)
    }

    func testAHeadReplyHasNoBodyToDecode() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.stub(.head, "me", returning: Data(#"{"name":"Ann","age":30}"#.utf8))
        let got = Captured<Person>()

        network.send(
            NetworkRequest<Person>(method: .head, urlString: "me"), successHandler: { got.success($0.value) },
            errorHandler: got.failure)

        XCTAssertEqual(
            got.errorDescriptions, ["emptyResponse"], "a reply to HEAD has no body, as in the real layer")
    }
}
