import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Regressions found by review: each failed (or stopped the process) before its fix.
final class ReviewFixTests: XCTestCase {
    /// Calls back twice, as a buggy interceptor might.
    private struct Twice: RequestInterceptor {
        func adapt(
            _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
        ) {
            completion(.success(request))
            completion(.success(request))
        }
    }

    /// Records every event, to check that `didFinish` comes last for each request.
    private final class Recorder: NetworkMonitor, @unchecked Sendable {
        private let lock = NSLock()
        private var events: [(UInt64, String)] = []
        func didBuild(_ request: URLRequest, for attempt: MonitoredAttempt) {
            add(attempt.request.id, "build")
        }
        func didStart(_ attempt: MonitoredAttempt) { add(attempt.request.id, "start") }
        func didReceive(_ response: HTTPURLResponse, body: Data, for attempt: MonitoredAttempt) {
            add(attempt.request.id, "receive")
        }
        func didFinish(
            _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
            metrics: RequestMetrics
        ) { add(request.id, "finish") }
        private func add(_ id: UInt64, _ event: String) { lock.withLock { events.append((id, event)) } }
        var log: [(UInt64, String)] { lock.withLock { events } }
    }

    func testAnOwnedSessionOutlivesItsLayerWhileARetryWaits() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 503, headers: ["Retry-After": "0"]))
        server.enqueue(try .json(["ok"]))
        let recorder = OutcomeRecorder<[String]>(expectation(description: "answered"))
        var network: NetworkLayer? = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral,
            retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.3))
        network?.get(urlString: "flaky", successHandler: recorder.success, errorHandler: recorder.failure)
        // The layer goes away during the backoff; the retry must still find a live session.
        network = nil
        wait(for: [recorder.expectation], timeout: 10)
        XCTAssertEqual(recorder.results.first?.value, ["ok"], "\(recorder.results)")
        XCTAssertEqual(server.requestCount, 2)
    }

    func testAnInterceptorCallingBackTwiceSendsOnce() throws {
        let server = try MockServer.started(in: self) { _ in try .json(["ok"]) }
        let network = NetworkLayer(baseURL: server.baseURL, interceptors: [Twice()])
        let result = outcome(of: [String].self) { recorder in
            network.post(
                urlString: "orders", body: ["item": "1"], successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
        XCTAssertEqual(result?.value, ["ok"])
        XCTAssertNil(
            server.takeRequest(timeout: 1).flatMap { _ in server.takeRequest(timeout: 0.3) }, "sent twice")
    }

    func testAHeaderNameAnInterceptorAddsIsCheckedLikeAnyOther() throws {
        let server = try MockServer.started(in: self) { _ in try .json(["ok"]) }
        let network = NetworkLayer(
            baseURL: server.baseURL, interceptors: [SettingHeader(name: "X-Evil\r\nInjected", value: "1")])
        let result = outcome(of: [String].self) { recorder in
            network.get(urlString: "a", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        guard case .invalidHeader(let refused)? = result?.error else {
            return XCTFail("\(String(describing: result))")
        }
        XCTAssertEqual(refused, "X-Evil\r\nInjected")
        XCTAssertEqual(server.requestCount, 0, "nothing was sent")
    }

    /// Foundation drops such a value inside `setValue(_:forHTTPHeaderField:)` itself, so the layer never
    /// sees it; what matters is that nothing is injected onto the wire.
    func testAHeaderValueWithALineBreakFromAnInterceptorInjectsNothing() throws {
        let server = try MockServer.started(in: self) { _ in try .json(["ok"]) }
        let network = NetworkLayer(
            baseURL: server.baseURL, interceptors: [SettingHeader(name: "X-Token", value: "abc\r\nX-Evil: 1")]
        )
        outcome(of: [String].self) { recorder in
            network.get(urlString: "a", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let head = String(decoding: try XCTUnwrap(server.takeRequest(timeout: 5)).rawHead, as: UTF8.self)
        XCTAssertFalse(head.lowercased().contains("x-evil"), head)
    }

    func testMonitorsNeverSeeAnEventAfterDidFinish() throws {
        let server = try MockServer.started(in: self) { _ in
            MockResponse(body: Data(repeating: 0x20, count: 32_768)).chunked(size: 1_024)
        }
        let recorder = Recorder()
        let queue = QueueMark.makeQueue("monitored")
        let network = NetworkLayer(baseURL: server.baseURL, callbackQueue: queue, monitors: [recorder])
        let done = expectation(description: "all answered")
        done.expectedFulfillmentCount = 300
        for index in 0..<300 {
            let task = network.get(
                urlString: "r\(index)", successHandler: { (_: EmptyResponse) in done.fulfill() },
                errorHandler: { _ in done.fulfill() })
            if index % 2 == 0 {
                // real wait: a random cancel moment (the race under test), not synchronisation
                DispatchQueue.global().asyncAfter(deadline: .now() + .microseconds(Int.random(in: 0...3_000)))
                {
                    task.cancel()
                }
            }
        }
        wait(for: [done], timeout: 60)
        waitUntil("the monitors caught up", timeout: 20) {
            recorder.log.filter { $0.1 == "finish" }.count == 300
        }
        // Late events of cancelled attempts would arrive now, if any were let through.
        let settled = expectation(description: "late events had their chance")
        // real wait: a negative check; late monitor events would arrive within it
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { settled.fulfill() }
        wait(for: [settled], timeout: 5)
        var finished: Set<UInt64> = []
        for (id, event) in recorder.log {
            XCTAssertFalse(finished.contains(id), "\(event) after didFinish for request \(id)")
            if event == "finish" { finished.insert(id) }
        }
        XCTAssertEqual(finished.count, 300)
    }
}
