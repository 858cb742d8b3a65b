import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The attempt loop at its edges: limits that mean "for ever", attempt numbers across a stream's
/// reconnections, and the monitors' one serial queue.
final class AttemptEdgeTests: XCTestCase {
    /// `maximumReconnects: .max`, "reconnect for ever", is a limit like any other.
    func testAStreamThatReconnectsForEverStarts() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.serverSentEvents([ServerSentEvent(data: "a", id: "1")]))
        server.enqueue(MockResponse(status: 204))
        let network = NetworkLayer(baseURL: server.baseURL)
        let options = ServerSentEventsOptions(
            maximumReconnects: .max, reconnectionDelay: 0.01, minimumReconnectionDelay: 0.01)

        let recording = record(
            network, NetworkRequest(urlString: "feed"), as: .serverSentEvents, options: options)

        XCTAssertEqual(try recording.outcome?.get().statusCode, 204)
    }

    /// `willRetry` names the attempt that failed by the number `didBuild` and `didStart` gave it.
    func testAStreamsReconnectionsReportTheFailedAttemptsNumber() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.serverSentEvents([ServerSentEvent(data: "a", id: "1")]))
        server.enqueue(.serverSentEvents([ServerSentEvent(data: "b", id: "2")]))
        server.enqueue(MockResponse(status: 204))
        let recorder = EventRecorder()
        let network = NetworkLayer(baseURL: server.baseURL, monitors: [recorder])
        let finished = recorder.expectFinishes(1, self)
        let options = ServerSentEventsOptions(reconnectionDelay: 0.01, minimumReconnectionDelay: 0.01)

        let recording = record(
            network, NetworkRequest(urlString: "feed"), as: .serverSentEvents, options: options)
        wait(for: [finished], timeout: 5)

        XCTAssertEqual(try recording.outcome?.get().metrics?.attempts, 3)
        let started = recorder.events.compactMap { event -> Int? in
            if case .start(let attempt) = event { return attempt.number }
            return nil
        }
        let retried = recorder.events.compactMap { event -> Int? in
            if case .retry(let attempt, _, _) = event { return attempt.number }
            return nil
        }
        XCTAssertEqual(started, [1, 2, 3])
        XCTAssertEqual(retried, [1, 2], "\(recorder.summaries)")
    }

    /// A monitor given to several requests of a layer without monitors of its own is still called on
    /// one serial queue, never from two at once.
    func testRequestMonitorsOfALayerWithoutMonitorsRunOnOneSerialQueue() throws {
        let server = try MockServer.started(in: self) { _ in try .json(["ok"]) }
        let network = NetworkLayer(baseURL: server.baseURL)
        let probe = OverlapProbe(expectation(description: "two finishes"))
        var request = NetworkRequest<[String]>(urlString: "items")
        request.monitors = [probe]

        let done = expectation(description: "both handlers")
        done.expectedFulfillmentCount = 2
        for _ in 0..<2 {
            network.send(
                request, successHandler: { _ in done.fulfill() }, errorHandler: { _ in done.fulfill() })
        }
        wait(for: [done, probe.finished], timeout: 10)

        XCTAssertFalse(probe.overlapped, "two didFinish events of one monitor ran at the same time")
    }

    /// `.retryAfter(.infinity)` is no retry, never an immediate one, whatever the policy's maximum.
    func testAnEndlessRetryAfterIsNoRetry() throws {
        struct EndlessWait: RequestInterceptor {
            func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {
                completion(.retryAfter(.infinity))
            }
        }
        let seen = Tally()
        let server = try MockServer.started(in: self) { _ in
            seen.increment()
            return seen.value == 1 ? MockResponse(status: 503) : try .json(["ok"])
        }
        let network = NetworkLayer(
            baseURL: server.baseURL, retryPolicy: RetryPolicy(maximumAttempts: 1, maximumDelay: .infinity),
            interceptors: [EndlessWait()])

        let result = outcome(of: [String].self) {
            network.get(urlString: "items", successHandler: $0.success, errorHandler: $0.failure)
        }

        XCTAssertEqual(server.requestCount, 1, "retried at once after being told to wait for ever")
        XCTAssertEqual(result?.error?.statusCode, 503)
    }
}

/// Holds the first `didFinish` until a second one arrives (or 2 s pass): on one serial queue the second
/// can't arrive while the first is held, so `overlapped` stays false.
private final class OverlapProbe: NetworkMonitor, @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    private var storedOverlapped = false
    private let secondArrived = DispatchSemaphore(value: 0)
    let finished: XCTestExpectation

    init(_ finished: XCTestExpectation) {
        self.finished = finished
        finished.expectedFulfillmentCount = 2
    }

    var overlapped: Bool { lock.withLock { storedOverlapped } }
    var observesAttempts: Bool { false }

    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        let number = lock.withLock {
            count += 1
            return count
        }
        if number == 1 {
            // Not a sleep to synchronise: it bounds how long the first event waits for a second that
            // a serial queue can't deliver meanwhile.
            let arrived = secondArrived.wait(timeout: .now() + 2) == .success
            lock.withLock { storedOverlapped = arrived }
        } else {
            secondArrived.signal()
        }
        finished.fulfill()
    }
}
