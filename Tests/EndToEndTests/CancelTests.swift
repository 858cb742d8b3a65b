import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Cancelling a request while the server is still writing its body.
final class CancelTests: XCTestCase {
    func testCancelDuringThrottledBodyEndsPromptlyAndClosesTheConnection() throws {
        let server = try MockServer.started(in: self)
        // 1 MB, 4 KB every 50 ms: about 13 s to send in full.
        server.enqueue(MockResponse(body: TestData.bytes(1_048_576)).throttled(bytes: 4_096, every: 0.05))
        server.enqueue(try .json(["after"]))
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        QueueMark.mark(.main, as: "main")
        let recorder = OutcomeRecorder<[String]>(expectation(description: "a handler runs"))

        let task = network.get(
            urlString: "slow", successHandler: recorder.success, errorHandler: recorder.failure)
        recorder.markReturned()
        let request = try XCTUnwrap(server.takeRequest(timeout: 5), "the server got the request")
        // The server writes the head and then the body, 4 KB at a time, right after recording it.
        let port = server.port
        let canObserveSockets = LoopbackTCP.acceptedSockets(onPort: port) != nil
        if canObserveSockets {
            XCTAssertEqual(LoopbackTCP.acceptedSockets(onPort: port), 1, "the server's side is open")
        }
        let cancelledAt = Date()
        task.cancel()
        let cancelReturned = Date().timeIntervalSince(cancelledAt)
        wait(for: [recorder.expectation], timeout: 5)
        let handlerAfter = Date().timeIntervalSince(cancelledAt)

        XCTAssertLessThan(cancelReturned, 0.1, "cancel() does not wait for the transport")
        XCTAssertLessThan(handlerAfter, 1, "the error handler follows cancel() promptly")
        XCTAssertEqual(recorder.results.count, 1)
        XCTAssertEqual(recorder.results.first?.error?.isCancelled, true, "\(recorder.results)")
        XCTAssertEqual(recorder.queues, ["main"])
        if canObserveSockets {
            // The server's next throttled write fails once the client has closed the connection; the
            // server then closes its side, and the kernel drops the socket from its table.
            waitUntil("the server closed its side", timeout: 5) {
                LoopbackTCP.acceptedSockets(onPort: port) == 0
            }
        }
        XCTAssertEqual(server.requestCount, 1, "nothing was resent")

        let next = outcome(of: [String].self) { recorder in
            network.get(urlString: "next", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        XCTAssertEqual(next?.value, ["after"], "the layer goes on: \(String(describing: next))")
        XCTAssertEqual(recorder.results.count, 1, "no late second call for the cancelled request")
        let second = try XCTUnwrap(server.takeRequest(timeout: 1))
        XCTAssertNotEqual(
            second.connectionID, request.connectionID, "the cancelled connection was not reused")
    }
}
