import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An interceptor that answers later, on a queue of its own, as one waiting for a token or a signature
/// service does.
private struct LateInterceptor: RequestInterceptor {
    let queue = DispatchQueue(label: "late-interceptor")
    var retries = false

    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        var adapted = request
        adapted.setValue("late", forHTTPHeaderField: "X-Adapted")
        let result = Result<URLRequest, NetworkError>.success(adapted)
        queue.async { completion(result) }
    }

    func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {
        let decision: RetryDecision = retries && attempt.number == 1 ? .retry : .doNotRetry
        queue.async { completion(decision) }
    }
}

/// Defect 4 of issue 19: when an interceptor completes asynchronously, the dummy delivers on its
/// `callbackQueue`, as the real layer always does, not on the thread the interceptor completed on.
final class DummyAsynchronousPolicyTests: XCTestCase {
    private static let mainMark = DispatchSpecificKey<String>()

    override func setUp() {
        super.setUp()
        DispatchQueue.main.setSpecific(key: Self.mainMark, value: "main")
    }

    func testAnInterceptorCompletingLaterDeliversOnTheMainQueue() {
        let network = DummyNetworkLayer(interceptors: [LateInterceptor()])
        network.successResponse = "ok"
        let delivered = expectation(description: "delivered")
        let queue = Captured<String?>()
        queue.onHandler = { delivered.fulfill() }
        network.get(
            urlString: "https://api.example.com/items",
            successHandler: { (_: String) in queue.success(DispatchQueue.getSpecific(key: Self.mainMark)) },
            errorHandler: queue.failure)
        queue.markReturned()
        wait(for: [delivered], timeout: 5)
        XCTAssertEqual(queue.values, ["main"])
        XCTAssertFalse(queue.ranBeforeReturn)
        XCTAssertEqual(network.recordedRequests.first?.header("X-Adapted"), "late")
    }

    func testARetryDecidedLaterDeliversTheErrorOnTheLayersCallbackQueue() {
        let callbackQueue = DispatchQueue(label: "callbacks")
        callbackQueue.setSpecific(key: Self.mainMark, value: "callbacks")
        let network = DummyNetworkLayer(deliveryQueue: callbackQueue, interceptors: [LateInterceptor()])
        // The test changes its mind after creating the layer: the layer's `callbackQueue` still applies
        // when an interceptor completes later.
        network.deliveryQueue = nil
        network.errorResponse = "down"
        let delivered = expectation(description: "delivered")
        let got = Captured<String?>()
        got.onHandler = { delivered.fulfill() }
        network.get(
            urlString: "https://api.example.com/items",
            successHandler: { (_: String) in got.success(nil) },
            errorHandler: { _ in got.success(DispatchQueue.getSpecific(key: Self.mainMark)) })
        wait(for: [delivered], timeout: 5)
        XCTAssertEqual(got.values, ["callbacks"])
    }

    func testARetryAcrossLateCompletionsStillDeliversOnceOnTheMainQueue() {
        let network = DummyNetworkLayer(interceptors: [LateInterceptor(retries: true)])
        network.stub(.get, "https://api.example.com/items", outcomes: [.failure("busy"), .success("ok")])
        let delivered = expectation(description: "delivered")
        let got = Captured<String?>()
        got.onHandler = { delivered.fulfill() }
        network.get(
            urlString: "https://api.example.com/items",
            successHandler: { (_: String) in got.success(DispatchQueue.getSpecific(key: Self.mainMark)) },
            errorHandler: got.failure)
        wait(for: [delivered], timeout: 5)
        XCTAssertEqual(got.values, ["main"])
        XCTAssertEqual(network.recordedRequests.count, 2)
    }

    func testInterceptorsCompletingInPlaceKeepTheAnswerSynchronous() {
        let network = DummyNetworkLayer(interceptors: [AddsHeader()])
        network.successResponse = "ok"
        let got = Captured<String>()
        network.get(
            urlString: "https://api.example.com/items", successHandler: got.success, errorHandler: got.failure
        )
        XCTAssertEqual(got.values, ["ok"])
    }
}

private struct AddsHeader: RequestInterceptor {
    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        var adapted = request
        adapted.setValue("1", forHTTPHeaderField: "X-Now")
        completion(.success(adapted))
    }
}
