import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// `cancelAll()`: every request the layer started whose handler has not run ends with `.cancelled`,
/// exactly once, on the callback queue; what was already answered and what starts later is untouched.
final class CancelAllTests: XCTestCase {
    func testEveryRequestInFlightEndsCancelledExactlyOnce() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(try .json(["first"]))
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        QueueMark.mark(.main, as: "main")

        let answered = outcome(of: [String].self) { recorder in
            network.get(urlString: "first", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        XCTAssertEqual(answered?.value, ["first"])
        // Taken now, so that the three taken below are the stalled ones: otherwise the last of them may
        // not have reached the server when cancelAll() runs, and its stall would answer "after".
        XCTAssertEqual(server.takeRequest(timeout: 5)?.path, "/first")

        for _ in 0..<3 { server.enqueue(MockResponse().withFault(.stall)) }
        let recorders = (0..<3).map { OutcomeRecorder<[String]>(expectation(description: "request \($0)")) }
        // Distinct paths: identical GETs in flight would share one request.
        for (index, recorder) in recorders.enumerated() {
            network.get(
                urlString: "stalled/\(index)", successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
        for _ in recorders { XCTAssertNotNil(server.takeRequest(timeout: 5), "the server got each request") }

        network.cancelAll()
        wait(for: recorders.map(\.expectation), timeout: 5)
        // A late second delivery would show here.
        let settled = expectation(description: "the main queue ran once more")
        DispatchQueue.main.async { settled.fulfill() }
        wait(for: [settled], timeout: 5)

        for recorder in recorders {
            XCTAssertEqual(recorder.results.count, 1, "exactly once")
            XCTAssertEqual(recorder.results.first?.error?.isCancelled, true, "\(recorder.results)")
            XCTAssertEqual(recorder.queues, ["main"])
        }
        XCTAssertEqual(answered?.value, ["first"], "an answered request is not touched")

        server.enqueue(try .json(["after"]))
        let after = outcome(of: [String].self) { recorder in
            network.get(urlString: "after", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        XCTAssertEqual(after?.value, ["after"], "a request started after cancelAll() runs")
    }

    func testAnAwaitedRequestThrowsCancelled() async throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse().withFault(.stall))
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        let waiting = Task { () async throws(NetworkError) -> [String] in
            try await network.get(urlString: "stalled")
        }
        let request = await Task.detached { server.takeRequest(timeout: 5) }.value
        XCTAssertNotNil(request)
        network.cancelAll()
        let result = await waiting.result
        XCTAssertEqual((result.error as? NetworkError)?.isCancelled, true, "\(result)")
    }
}
