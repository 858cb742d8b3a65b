import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Thousands of requests, many cancelled at random moments from random threads: before the transport
/// starts, while connecting, mid-body, while a redirect is being answered, and racing the reply.
/// FoundationNetworking stops the process for some of these orders unless the layer keeps them apart.
final class CancelStormTests: XCTestCase {
    /// Starts the requests and counts each one's handler calls. Invariant for `@unchecked Sendable`:
    /// every stored property except the constants is touched only on `queue`, the layer's serial
    /// callback queue.
    private final class Storm: @unchecked Sendable {
        let total: Int
        let window: Int
        let network: NetworkLayer
        let paths: [String]
        let queue: DispatchQueue
        let finished: XCTestExpectation
        var calls: [Int]
        var outcomes: [String: Int] = [:]
        var started = 0
        var inFlight = 0
        var done = 0
        private var random = SystemRandomNumberGenerator()

        init(total: Int, window: Int, paths: [String], network: NetworkLayer, finished: XCTestExpectation) {
            self.total = total
            self.paths = paths
            self.window = window
            self.network = network
            queue = network.callbackQueue
            self.finished = finished
            calls = Array(repeating: 0, count: total)
        }

        /// Fills the window; runs on `queue`.
        func startMore() {
            while inFlight < window && started < total {
                let id = started
                started += 1
                inFlight += 1
                let path =
                    ["ok", "ok", "ok", "redirect", "redirect", "chunked"].randomElement(using: &random)
                    ?? "ok"
                let task = network.get(
                    urlString: path, query: ["id": String(id)],
                    successHandler: { (_: [String: Int]) in self.record(id, "success") },
                    errorHandler: { error in self.record(id, error.isCancelled ? "cancelled" : "\(error)") })
                guard Int.random(in: 0..<10, using: &random) < 3 else { continue }
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    task.cancel()
                case 1:
                    DispatchQueue.global().async { task.cancel() }
                default:
                    let delay = Double.random(in: 0...0.004, using: &random)
                    // real wait: a random cancel moment (the storm under test), not synchronisation
                    DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                        task.cancel()
                        task.cancel()
                    }
                }
            }
        }

        private func record(_ id: Int, _ outcome: String) {
            calls[id] += 1
            outcomes[outcome, default: 0] += 1
            guard calls[id] == 1 else { return }
            inFlight -= 1
            done += 1
            if done == total { finished.fulfill() }
            startMore()
        }
    }

    func testRandomCancelsFromRandomThreadsNeverStopTheProcess() throws {
        try storm(paths: ["ok", "ok", "chunked"])
    }

    func testRandomCancelsDuringRedirectsNeverStopTheProcess() throws {
        try storm(paths: ["ok", "redirect", "redirect", "chunked"])
    }

    /// 3,000 requests, 64 in flight, 30% cancelled; every request gets exactly one handler call.
    private func storm(paths: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let server = try MockServer.started(in: self) { request in
            switch request.path {
            case "/redirect": MockResponse(status: 302, headers: ["Location": "/ok?\(request.query ?? "")"])
            case "/chunked":
                try MockResponse.json(Dictionary(uniqueKeysWithValues: (0..<400).map { ("k\($0)", $0) }))
                    .chunked(size: 512)
            default: try MockResponse.json(["id": 1])
            }
        }
        let queue = QueueMark.makeQueue("storm")
        let network = NetworkLayer(baseURL: server.baseURL, callbackQueue: queue, timeout: 20)
        let storm = Storm(
            total: 3_000, window: 64, paths: paths, network: network,
            finished: expectation(description: "all answered"))
        queue.async { storm.startMore() }
        wait(for: [storm.finished], timeout: 90)
        let drained = expectation(description: "late calls had their chance")
        // real wait: a negative check; late calls would arrive within it
        queue.asyncAfter(deadline: .now() + 0.3) { drained.fulfill() }
        wait(for: [drained], timeout: 5)
        queue.sync {
            let wrong = storm.calls.filter { $0 != 1 }.count
            XCTAssertEqual(wrong, 0, "requests without exactly one handler call", file: file, line: line)
            XCTAssertEqual(storm.done, storm.total, file: file, line: line)
            let outcomes = storm.outcomes
            XCTAssertGreaterThan(
                outcomes["cancelled", default: 0], 300, "\(outcomes)", file: file, line: line)
            XCTAssertGreaterThan(
                outcomes["success", default: 0], 1_000, "\(outcomes)", file: file, line: line)
            let others = outcomes.keys.filter { $0 != "success" && $0 != "cancelled" }
            XCTAssertEqual(others, [], "\(outcomes)", file: file, line: line)
        }
    }
}
