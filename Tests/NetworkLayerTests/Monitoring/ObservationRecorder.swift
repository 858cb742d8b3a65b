import Foundation
import NetworkLayer
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A monitor that keeps what the layer tells: requests begun, attempts started, requests finished with
/// their metrics. `@unchecked`: `lock` guards every stored property.
final class ObservationRecorder: NetworkMonitor, @unchecked Sendable {
    struct Finish {
        let request: MonitoredRequest
        let result: Result<NetworkResponse<Data>, NetworkError>
        let metrics: RequestMetrics
    }

    private let lock = NSLock()
    private var storedCreated: [MonitoredRequest] = []
    private var storedStarted: [MonitoredAttempt] = []
    private var storedFinishes: [Finish] = []
    private var waiting: [XCTestExpectation] = []
    private var createdWaiting: [XCTestExpectation] = []
    private var storedLog: [String] = []

    var created: [MonitoredRequest] { lock.withLock { storedCreated } }
    var started: [MonitoredAttempt] { lock.withLock { storedStarted } }
    var finishes: [Finish] { lock.withLock { storedFinishes } }
    /// "create", "start" and "finish", each with its request's path, in the order told.
    var log: [String] { lock.withLock { storedLog } }

    /// Fulfilled once `count` more requests finished.
    func expectFinishes(_ count: Int, _ test: XCTestCase) -> XCTestExpectation {
        expect(count, "finishes", test) { $0.waiting.append($1) }
    }

    /// Fulfilled once `count` more requests began.
    func expectCreated(_ count: Int, _ test: XCTestCase) -> XCTestExpectation {
        expect(count, "created", test) { $0.createdWaiting.append($1) }
    }

    private func expect(
        _ count: Int, _ what: String, _ test: XCTestCase,
        add: (ObservationRecorder, XCTestExpectation) -> Void
    ) -> XCTestExpectation {
        let expectation = test.expectation(description: "\(count) \(what)")
        expectation.expectedFulfillmentCount = count
        expectation.assertForOverFulfill = false
        lock.withLock { add(self, expectation) }
        return expectation
    }

    /// The metrics of every finished request to `path`, in the order they finished.
    func metrics(for path: String) -> [RequestMetrics] {
        finishes.filter { $0.request.url?.path == path }.map(\.metrics)
    }

    func didCreate(_ request: MonitoredRequest) {
        let told = lock.withLock {
            storedCreated.append(request)
            storedLog.append("create \(request.url?.path ?? "")")
            return createdWaiting
        }
        for expectation in told { expectation.fulfill() }
    }

    func didStart(_ attempt: MonitoredAttempt) {
        lock.withLock {
            storedStarted.append(attempt)
            storedLog.append("start \(attempt.request.url?.path ?? "")")
        }
    }

    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        let told = lock.withLock {
            storedFinishes.append(Finish(request: request, result: result, metrics: metrics))
            storedLog.append("finish \(request.url?.path ?? "")")
            return waiting
        }
        for expectation in told { expectation.fulfill() }
    }
}
