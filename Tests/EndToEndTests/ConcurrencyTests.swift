import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// 1,000 requests, 64 in flight at a time, through the shared session, answered on a custom queue.
final class ConcurrencyTests: XCTestCase {
    private struct Answer: Codable {
        var id: Int
    }

    /// Starts the requests and counts the answers. Invariant for `@unchecked Sendable`: every stored
    /// property is touched only on `queue`, the layer's (serial) callback queue.
    private final class Load: @unchecked Sendable {
        let total: Int
        let window: Int
        let network: NetworkLayer
        let queue: DispatchQueue
        let finished: XCTestExpectation
        var answers: [Int]
        var mismatches: [String] = []
        var errors: [NetworkError] = []
        var offQueue = 0
        var started = 0
        var inFlight = 0
        var mostInFlight = 0

        init(total: Int, window: Int, network: NetworkLayer, finished: XCTestExpectation) {
            self.total = total
            self.window = window
            self.network = network
            queue = network.callbackQueue
            self.finished = finished
            answers = Array(repeating: 0, count: total)
        }

        /// Fills the window; runs on `queue`.
        func startMore() {
            while inFlight < window && started < total {
                let id = started
                started += 1
                inFlight += 1
                mostInFlight = max(mostInFlight, inFlight)
                network.get(
                    urlString: "load", query: ["id": String(id)],
                    successHandler: { (answer: Answer) in
                        self.answers[id] += 1
                        if answer.id != id { self.mismatches.append("\(id) answered as \(answer.id)") }
                        self.finish()
                    },
                    errorHandler: { error in
                        self.answers[id] += 1
                        self.errors.append(error)
                        self.finish()
                    })
            }
        }

        private func finish() {
            if QueueMark.current != queue.label { offQueue += 1 }
            inFlight -= 1
            finished.fulfill()
            startMore()
        }
    }

    func testThousandRequestsSixtyFourInFlight() throws {
        let server = try MockServer.started(in: self) { request in
            try .json(Answer(id: Int(request.queryValue("id") ?? "") ?? -1))
        }
        let queue = QueueMark.makeQueue("e2e.load")
        let network = NetworkLayer(baseURL: server.baseURL, callbackQueue: queue)
        let finished = expectation(description: "every request answered")
        finished.expectedFulfillmentCount = 1_000
        let load = Load(total: 1_000, window: 64, network: network, finished: finished)

        queue.async { load.startMore() }
        wait(for: [finished], timeout: 20)
        // Anything already queued behind the last answer, such as a doubled delivery, runs first.
        let drained = expectation(description: "callback queue drained")
        queue.async { drained.fulfill() }
        wait(for: [drained], timeout: 5)

        queue.sync {
            XCTAssertEqual(load.started, 1_000)
            XCTAssertEqual(load.inFlight, 0)
            XCTAssertEqual(load.mostInFlight, 64)
            XCTAssertEqual(load.errors.count, 0, "\(load.errors.prefix(5))")
            XCTAssertEqual(load.mismatches, [])
            XCTAssertEqual(load.offQueue, 0, "answers delivered off the callback queue")
            let unanswered = load.answers.indices.filter { load.answers[$0] == 0 }
            let doubled = load.answers.indices.filter { load.answers[$0] > 1 }
            XCTAssertEqual(unanswered, [], "never answered")
            XCTAssertEqual(doubled, [], "answered more than once")
        }
        let recorded = server.recordedRequests
        XCTAssertEqual(recorded.count, 1_000)
        XCTAssertEqual(Set(recorded.compactMap { $0.queryValue("id").flatMap(Int.init) }), Set(0..<1_000))
    }
}
