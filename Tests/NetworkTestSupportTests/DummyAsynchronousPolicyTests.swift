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
    static let mark = DispatchSpecificKey<String>()
    let queue: DispatchQueue = {
        let queue = DispatchQueue(label: "late-interceptor")
        queue.setSpecific(key: LateInterceptor.mark, value: "interceptor")
        return queue
    }()
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

/// An interceptor that completes later: the dummy delivers immediately (issue 31), so the handler runs
/// where the interceptor completed, after the request method returned; with a delivery queue given to
/// `init`, on that queue, as the real layer delivers on its `callbackQueue`.
final class DummyAsynchronousPolicyTests: XCTestCase {
    private static let mainMark = DispatchSpecificKey<String>()

    override func setUp() {
        super.setUp()
        DispatchQueue.main.setSpecific(key: Self.mainMark, value: "main")
    }

    /// Where the handler runs: the interceptor's queue, the delivery queue or the main queue.
    private static var here: String? {
        DispatchQueue.getSpecific(key: LateInterceptor.mark) ?? DispatchQueue.getSpecific(key: mainMark)
    }

    func testAnInterceptorCompletingLaterDeliversWhereItCompleted() {
        let network = DummyNetworkLayer(interceptors: [LateInterceptor()])
        network.successResponse = "ok"
        let delivered = expectation(description: "delivered")
        let queue = Captured<String?>()
        queue.onHandler = { delivered.fulfill() }
        network.get(
            urlString: "https://api.example.com/items",
            successHandler: { (_: String) in queue.success(Self.here) },
            errorHandler: queue.failure)
        wait(for: [delivered], timeout: 5)
        // On the interceptor's queue, so not inside the call, which ran on this thread.
        XCTAssertEqual(queue.values, ["interceptor"])
        XCTAssertEqual(network.recordedRequests.first?.header("X-Adapted"), "late")
    }

    func testARetryDecidedLaterDeliversTheErrorOnTheDeliveryQueue() {
        let callbackQueue = DispatchQueue(label: "callbacks")
        callbackQueue.setSpecific(key: Self.mainMark, value: "callbacks")
        let network = DummyNetworkLayer(deliveryQueue: callbackQueue, interceptors: [LateInterceptor()])
        network.errorResponse = "down"
        let delivered = expectation(description: "delivered")
        let got = Captured<String?>()
        got.onHandler = { delivered.fulfill() }
        network.get(
            urlString: "https://api.example.com/items",
            successHandler: { (_: String) in got.success(nil) },
            errorHandler: { _ in got.success(Self.here) })
        wait(for: [delivered], timeout: 5)
        XCTAssertEqual(got.values, ["callbacks"])
    }

    func testADeliveryQueueRemovedAfterInitDeliversWhereTheInterceptorCompleted() {
        let callbackQueue = DispatchQueue(label: "callbacks")
        callbackQueue.setSpecific(key: Self.mainMark, value: "callbacks")
        let network = DummyNetworkLayer(deliveryQueue: callbackQueue, interceptors: [LateInterceptor()])
        // The test changes its mind after creating the layer: later requests are delivered immediately.
        network.deliveryQueue = nil
        network.errorResponse = "down"
        let delivered = expectation(description: "delivered")
        let got = Captured<String?>()
        got.onHandler = { delivered.fulfill() }
        network.get(
            urlString: "https://api.example.com/items",
            successHandler: { (_: String) in got.success(nil) },
            errorHandler: { _ in got.success(Self.here) })
        wait(for: [delivered], timeout: 5)
        XCTAssertEqual(got.values, ["interceptor"])
    }

    func testARetryAcrossLateCompletionsStillDeliversOnceWhereTheLastCompleted() {
        let network = DummyNetworkLayer(interceptors: [LateInterceptor(retries: true)])
        network.stub(.get, "https://api.example.com/items", outcomes: [.failure("busy"), .success("ok")])
        let delivered = expectation(description: "delivered")
        let got = Captured<String?>()
        got.onHandler = { delivered.fulfill() }
        network.get(
            urlString: "https://api.example.com/items",
            successHandler: { (_: String) in got.success(Self.here) },
            errorHandler: got.failure)
        wait(for: [delivered], timeout: 5)
        XCTAssertEqual(got.values, ["interceptor"])
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
