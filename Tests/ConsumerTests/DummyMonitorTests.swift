import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// An app's monitors see what `DummyNetworkLayer` does as they would see the real layer, without a
/// network: the hooks are testable offline.
final class DummyMonitorTests: XCTestCase {
    /// Records each event as a line, and what the last request was built as and finished with.
    final class RecordingMonitor: NetworkMonitor, @unchecked Sendable {
        private let lock = NSLock()
        private var storedLines: [String] = []
        private var storedBuilt: [URLRequest] = []
        private var storedFinish: (Result<NetworkResponse<Data>, NetworkError>, RequestMetrics)?
        private var storedIDs: Set<UInt64> = []
        let finished: XCTestExpectation

        init(_ finished: XCTestExpectation) {
            self.finished = finished
        }

        var lines: [String] { lock.withLock { storedLines } }
        var built: [URLRequest] { lock.withLock { storedBuilt } }
        var finish: (result: Result<NetworkResponse<Data>, NetworkError>, metrics: RequestMetrics)? {
            lock.withLock { storedFinish }
        }
        var requestIDs: Set<UInt64> { lock.withLock { storedIDs } }

        private func note(_ line: String, _ id: UInt64) {
            lock.withLock {
                storedLines.append(line)
                storedIDs.insert(id)
            }
        }

        func didBuild(_ request: URLRequest, for attempt: MonitoredAttempt) {
            lock.withLock { storedBuilt.append(request) }
            note("build \(attempt.number)", attempt.request.id)
        }

        func didStart(_ attempt: MonitoredAttempt) {
            note("start \(attempt.number)", attempt.request.id)
        }

        func didReceive(_ response: HTTPURLResponse, body: Data, for attempt: MonitoredAttempt) {
            note("receive \(attempt.number) \(response.statusCode) \(body.count) bytes", attempt.request.id)
        }

        func willRetry(_ attempt: MonitoredAttempt, after delay: TimeInterval, because error: NetworkError) {
            note("retry \(attempt.number) \(error.statusCode ?? 0)", attempt.request.id)
        }

        func didFinish(
            _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
            metrics: RequestMetrics
        ) {
            lock.withLock { storedFinish = (result, metrics) }
            switch result {
            case .success(let response): note("finish \(response.statusCode)", request.id)
            case .failure(let error): note("finish \(error)", request.id)
            }
            finished.fulfill()
        }
    }

    func testAMonitorSeesTheDummysRequestBuiltAndFinishedWithMetrics() throws {
        let monitor = RecordingMonitor(expectation(description: "finished"))
        let network = DummyNetworkLayer(
            baseURL: URL(string: "https://api.example.com/v1"), defaultHeaders: ["X-App": "tests"],
            monitors: [monitor])
        let fixture = Data(#"[{"id":1,"title":"Write tests"}]"#.utf8)
        network.stub(.get, "todos", returning: fixture, statusCode: 200, headers: ["ETag": "\"v1\""])

        var todos: [Todo]?
        var handlerMetrics: RequestMetrics?
        network.send(
            NetworkRequest(urlString: "todos", query: ["page": "2"]),
            successHandler: { (response: NetworkResponse<[Todo]>) in
                todos = response.value
                handlerMetrics = response.metrics
            },
            errorHandler: { XCTFail("\($0)") })
        wait(for: [monitor.finished], timeout: 5)

        XCTAssertEqual(todos, [Todo(id: 1, title: "Write tests")])
        XCTAssertEqual(
            monitor.lines, ["build 1", "start 1", "receive 1 200 \(fixture.count) bytes", "finish 200"])
        XCTAssertEqual(monitor.requestIDs.count, 1)
        let built = try XCTUnwrap(monitor.built.first)
        XCTAssertEqual(built.url?.absoluteString, "https://api.example.com/v1/todos?page=2")
        XCTAssertEqual(built.value(forHTTPHeaderField: "X-App"), "tests")
        let finish = try XCTUnwrap(monitor.finish)
        let response = try XCTUnwrap(finish.result.value)
        XCTAssertEqual(response.value, fixture)
        XCTAssertEqual(response.headers["etag"], "\"v1\"")
        XCTAssertEqual(finish.metrics.attempts, 1)
        XCTAssertEqual(finish.metrics.bytesSent, 0)
        XCTAssertEqual(finish.metrics.bytesReceived, fixture.count)
        XCTAssertGreaterThanOrEqual(finish.metrics.duration, 0)
        // The monitor's add the wait for the callback queue, which the handler's can't know yet.
        var delivered = try XCTUnwrap(handlerMetrics)
        delivered.deliveryDuration = finish.metrics.deliveryDuration
        delivered.duration += finish.metrics.deliveryDuration
        XCTAssertEqual(finish.metrics, delivered, "the monitor's metrics are the handler's plus the delivery")
    }

    /// Regression: the dummy told its monitors nothing of a retry.
    func testAMonitorSeesTheDummysRetries() throws {
        let monitor = RecordingMonitor(expectation(description: "finished"))
        let network = DummyNetworkLayer(monitors: [monitor])
        network.stub(
            .get, "https://api.example.com/flaky",
            outcomes: [.response(Data("busy".utf8), statusCode: 503, headers: [:]), .success(["ok"])])
        var request = NetworkRequest<[String]>(urlString: "https://api.example.com/flaky")
        request.retryPolicy = RetryPolicy(maximumAttempts: 3, initialDelay: 0.01)

        var value: [String]?
        network.send(request, successHandler: { value = $0.value }, errorHandler: { XCTFail("\($0)") })
        wait(for: [monitor.finished], timeout: 5)

        XCTAssertEqual(value, ["ok"])
        XCTAssertEqual(
            monitor.lines,
            [
                "build 1", "start 1", "receive 1 503 4 bytes", "retry 1 503",
                // A typed stub has no bytes.
                "build 2", "start 2", "receive 2 200 0 bytes", "finish 200",
            ])
        XCTAssertEqual(monitor.finish?.metrics.attempts, 2)
    }

    /// Regression: the dummy told its monitors nothing of a request it refused.
    func testARefusedRequestFinishesWithoutBeingBuilt() throws {
        let monitor = RecordingMonitor(expectation(description: "finished"))
        let network = DummyNetworkLayer(monitors: [monitor])

        var error: NetworkError?
        network.get(
            urlString: "not a url at all", successHandler: { (_: [Todo]) in XCTFail("no success") },
            errorHandler: { error = $0 })
        wait(for: [monitor.finished], timeout: 5)

        guard case .invalidURL? = error, case .invalidURL? = monitor.finish?.result.error else {
            return XCTFail("\(String(describing: error)), \(monitor.lines)")
        }
        XCTAssertEqual(monitor.lines.count, 1, "\(monitor.lines)")
        XCTAssertEqual(network.refusedRequests.count, 1)
    }

    /// Regression: the monitors heard of the stubbed success while the handler received `.cancelled`.
    func testACancelledDeliveryFinishesAsCancelled() throws {
        let monitor = RecordingMonitor(expectation(description: "finished"))
        let queue = DispatchQueue(label: "dummy-monitor-tests")
        let network = DummyNetworkLayer(deliveryQueue: queue, monitors: [monitor])
        network.successResponse = [Todo(id: 1, title: "Write tests")]
        let handled = expectation(description: "a handler ran")

        let task = queue.sync {
            let task = network.get(
                urlString: "https://api.example.com/todos",
                successHandler: { (_: [Todo]) in XCTFail("cancelled before delivery") },
                errorHandler: { error in
                    XCTAssertEqual("\(error)", "cancelled")
                    handled.fulfill()
                })
            task.cancel()
            return task
        }
        wait(for: [handled, monitor.finished], timeout: 5)

        XCTAssertEqual((task as? DummyTask)?.cancelCount, 1)
        XCTAssertEqual(monitor.lines.last, "finish cancelled")
        XCTAssertEqual(monitor.lines.filter { $0.hasPrefix("finish") }.count, 1)
    }

    func testWithoutMonitorsTheDummyMeasuresAsTheRealLayerDoes() {
        let network = DummyNetworkLayer()
        network.stub(.get, "https://api.example.com/todos", returning: Data("[]".utf8))
        var metrics: RequestMetrics?
        network.send(
            NetworkRequest(urlString: "https://api.example.com/todos"),
            successHandler: { (response: NetworkResponse<[Todo]>) in metrics = response.metrics },
            errorHandler: { XCTFail("\($0)") })
        XCTAssertEqual(metrics?.attempts, 1)
        XCTAssertEqual(metrics?.bytesReceived, 2, "the stubbed body, as the real layer counts a reply's")
        XCTAssertNotNil(metrics?.timeToFirstByte)
        XCTAssertTrue(network.monitors.isEmpty)
    }
}

extension Result {
    fileprivate var value: Success? { try? get() }
    fileprivate var error: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
