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

    /// Turns holding on from the second attempt: the first is answered in place, the retry is held.
    private final class HoldFromSecondAttempt: RequestInterceptor, @unchecked Sendable {
        weak var network: DummyNetworkLayer?
        // Attempts run one at a time.
        private var attempts = 0

        func adapt(
            _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
        ) {
            attempts += 1
            if attempts == 2 { network?.holdsReplies = true }
            completion(.success(request))
        }
    }

    private func retryingThenHolding(_ url: String, first: DummyOutcome, then second: DummyOutcome)
        -> DummyNetworkLayer
    {
        let hold = HoldFromSecondAttempt()
        let network = DummyNetworkLayer(retryPolicy: RetryPolicy(maximumAttempts: 2), interceptors: [hold])
        hold.network = network
        network.stub(.get, url, outcomes: [first, second])
        return network
    }

    func testCancelAfterAnInPlaceRetryStopsTheHeldRetry() {
        let network = retryingThenHolding(
            "https://api.example.com/a", first: .response(Data(), statusCode: 503, headers: [:]),
            then: .success("ok"))
        let got = Captured<String>()

        let task = network.get(
            urlString: "https://api.example.com/a", successHandler: got.success, errorHandler: got.failure)
        XCTAssertEqual(network.pendingRequests.count, 1, "the retry is held")
        task.cancel()

        XCTAssertEqual(got.errorDescriptions, ["cancelled"])
        XCTAssertEqual(network.pendingRequests.count, 0, "the cancel reached the held retry")
    }

    func testACancelledDownloadAfterAnInPlaceRetryIsDelivered() throws {
        let folder = try temporaryFolder()
        let network = retryingThenHolding(
            "https://x.example.com/f", first: .response(Data(), statusCode: 503, headers: [:]),
            then: .success(Data(count: 10)))
        let got = Captured<URL>()

        let task = network.send(
            .download(urlString: "https://x.example.com/f", to: folder.appendingPathComponent("f")),
            successHandler: { got.success($0.value) }, errorHandler: got.failure)
        task.cancel()

        XCTAssertEqual(got.errorDescriptions, ["cancelled"], "cancel() of a held download delivers at once")
        XCTAssertEqual(network.pendingRequests.count, 0)
    }

    func testScriptedProgressIsReportedOnceWhenTheDownloadIsRetried() throws {
        let folder = try temporaryFolder()
        let network = DummyNetworkLayer(retryPolicy: RetryPolicy(maximumAttempts: 2))
        network.stub(
            .get, "https://x.example.com/f",
            outcomes: [.response(Data(), statusCode: 503, headers: [:]), .success(Data(count: 100))])
        network.scriptedProgress = [
            TransferProgress(completedBytes: 50, expectedBytes: 100),
            TransferProgress(completedBytes: 100, expectedBytes: 100),
        ]
        let events = Captured<String>()

        var request = NetworkRequest.download(
            urlString: "https://x.example.com/f", to: folder.appendingPathComponent("f"))
        request.progressHandler = { events.success("\($0.completedBytes)") }
        network.send(request, successHandler: { _ in events.success("done") }, errorHandler: events.failure)

        XCTAssertEqual(events.values, ["50", "100", "done"])
    }

    func testATypedValueForAHeadRequestIsAnEmptyResponseAsOnTheNetwork() {
        let network = DummyNetworkLayer()
        network.successResponse = ann
        let got = Captured<NetworkResponse<Person>>()

        network.send(
            NetworkRequest<Person>(method: .head, urlString: "https://api.example.com/me"),
            successHandler: got.success, errorHandler: got.failure)

        XCTAssertEqual(got.errorDescriptions, ["emptyResponse"])
    }

    func testAReleaseTheRetryPolicyRetriesHoldsTheNextAttempt() {
        let network = DummyNetworkLayer(retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0))
        network.holdsReplies = true
        let got = Captured<String>()
        network.get(
            urlString: "https://api.example.com/a", successHandler: got.success, errorHandler: got.failure)

        network.pendingRequests[0].fail(with: .transport(URLError(.timedOut)))

        XCTAssertEqual(got.count, 0, "the retry policy sends the request again, as the real layer does")
        XCTAssertEqual(network.pendingRequests.count, 1)
        XCTAssertEqual(network.recordedRequests.count, 2)
        network.pendingRequests[0].succeed(with: "ok")
        XCTAssertEqual(got.values, ["ok"])
        XCTAssertEqual(network.pendingRequests.count, 0)
    }

    /// Completes on a queue of its own, after the request method has returned.
    private struct LaterAdapter: RequestInterceptor {
        let queue = DispatchQueue(label: "DummyPipelineTests.later")

        func adapt(
            _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
        ) {
            queue.async { completion(.success(request)) }
        }
    }

    func testWithALaterInterceptorTheRequestIsHeldOnceItHasCompleted() {
        let network = DummyNetworkLayer(interceptors: [LaterAdapter()])
        network.holdsReplies = true
        let got = Captured<String>()
        network.get(
            urlString: "https://api.example.com/a", successHandler: got.success, errorHandler: got.failure)

        let held = expectation(
            for: NSPredicate { _, _ in network.pendingRequests.count == 1 }, evaluatedWith: nil)
        wait(for: [held], timeout: 5)
        XCTAssertEqual(network.recordedRequests.count, 1)
        network.pendingRequests[0].succeed(with: "ok")
        XCTAssertEqual(got.values, ["ok"], "released on the test's thread: delivered there, at once")
    }

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }
}
