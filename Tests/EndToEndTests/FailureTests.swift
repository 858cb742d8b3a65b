import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Timeouts, disconnects at each point and a refused connection: each ends in exactly one call of the
/// error handler, on the callback queue, for both the main queue and a custom one.
///
/// Every fault meets the first request of a new connection: a fresh server and a fresh ephemeral
/// layer per case (on a reused keep-alive connection libcurl silently resends the request).
final class FailureTests: XCTestCase {
    private static let customQueue = QueueMark.makeQueue("e2e.failures")
    private let queues: [(queue: DispatchQueue, name: String)] = [
        (.main, "main"), (FailureTests.customQueue, "e2e.failures"),
    ]
    private let body = Data(("[" + (0..<3_000).map(String.init).joined(separator: ",") + "]").utf8)

    private struct Failure {
        var error: NetworkError
        var elapsed: TimeInterval
        var server: MockServer
    }

    /// Sends a GET to a new server that answers with `reply`, through a new ephemeral layer.
    private func failure(
        answering reply: MockResponse?, on queue: DispatchQueue, named name: String,
        timeout: TimeInterval = 60,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> Failure {
        let server = try MockServer.started(in: self)
        if let reply { server.enqueue(reply) }
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue, timeout: timeout)
        let start = Date()
        let result = outcome(of: [Int].self, on: queue, queueName: name, file: file, line: line) { recorder in
            network.get(urlString: "fault", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let elapsed = Date().timeIntervalSince(start)
        let error = try XCTUnwrap(
            result?.error, "\(name): \(String(describing: result))", file: file, line: line)
        XCTAssertFalse(error.message.isEmpty, file: file, line: line)
        return Failure(error: error, elapsed: elapsed, server: server)
    }

    func testStalledServerTimesOut() throws {
        for (queue, name) in queues {
            let stall = MockResponse(body: body).withFault(.stall)

            let failure = try failure(answering: stall, on: queue, named: name, timeout: 1)

            XCTAssertTrue(failure.error.isTimedOut, "\(name): \(failure.error)")
            XCTAssertGreaterThanOrEqual(failure.elapsed, 0.9, name)
            XCTAssertLessThan(failure.elapsed, 5, name)
            XCTAssertEqual(failure.server.requestCount, 1, "\(name): recorded once, not resent")
        }
    }

    func testTimeoutCountsIdleTimeNotTotalTime() throws {
        let server = try MockServer.started(in: self)
        // Seven writes 0.2 s apart: 1.2 s in all, never more than 0.2 s without data.
        server.enqueue(MockResponse(body: body).throttled(bytes: body.count / 7 + 1, every: 0.2))
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 1)
        let start = Date()

        let result = outcome(of: [Int].self) { recorder in
            network.get(urlString: "slow", successHandler: recorder.success, errorHandler: recorder.failure)
        }

        XCTAssertEqual(result?.value?.count, 3_000, String(describing: result))
        XCTAssertGreaterThan(Date().timeIntervalSince(start), 1.1, "longer than the timeout in total")
    }

    func testDisconnectAtStart() throws {
        for (queue, name) in queues {
            let drop = MockResponse(body: body).withFault(.disconnectAtStart)

            let failure = try failure(answering: drop, on: queue, named: name)

            // Measured: either, depending on whether libcurl had written the request when the close
            // arrived (about 1 run in 2 each, on both the shared and an ephemeral session).
            XCTAssertTrue(
                [.networkConnectionLost, .badServerResponse].contains(failure.error.transportCode),
                "\(name): \(failure.error)")
            XCTAssertEqual(failure.server.requestCount, 0, "\(name): nothing was read")
        }
    }

    func testDisconnectAfterRequest() throws {
        for (queue, name) in queues {
            let drop = MockResponse(body: body).withFault(.disconnectAfterRequest)

            let failure = try failure(answering: drop, on: queue, named: name)

            // libcurl reports an empty reply; Apple's URLSession a lost connection.
            XCTAssertTrue(
                [.badServerResponse, .networkConnectionLost].contains(failure.error.transportCode),
                "\(name): \(String(describing: failure.error.transportCode))")
            XCTAssertEqual(failure.server.requestCount, 1, name)
        }
    }

    func testDisconnectMidBody() throws {
        for (queue, name) in queues {
            let cut = MockResponse(body: body).withFault(.disconnectMidBody)

            let failure = try failure(answering: cut, on: queue, named: name)

            // FoundationNetworking reports a truncated body as URLError.unknown (-1); the layer reports
            // it as the lost connection it is, as for a download, so a retry policy retries both.
            XCTAssertEqual(failure.error.transportCode, .networkConnectionLost, "\(name): \(failure.error)")
            XCTAssertEqual(failure.server.requestCount, 1, name)
        }
    }

    func testAGetCutMidBodyIsRetriedAsADownloadIs() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL, retryPolicy: .default)
        server.enqueue(MockResponse(body: body).withFault(.disconnectMidBody))
        server.enqueue(MockResponse(body: body))

        let result = outcome(of: Data.self) { recorder in
            network.get(urlString: "cut", successHandler: recorder.success, errorHandler: recorder.failure)
        }

        XCTAssertEqual(result?.value, body, "\(String(describing: result))")
        XCTAssertEqual(server.requestCount, 2, "the cut reply was retried once")
    }

    func testRefusedConnection() throws {
        let stopped = MockServer()
        try stopped.start()
        let baseURL = stopped.baseURL
        stopped.stop()
        let shared = NetworkLayer(baseURL: baseURL)
        let ownSession = NetworkLayer(
            baseURL: baseURL, sessionConfiguration: .ephemeral, callbackQueue: Self.customQueue)

        let viaShared = outcome(of: [Int].self) { recorder in
            shared.get(urlString: "x", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let viaOwn = outcome(of: [Int].self, on: Self.customQueue, queueName: "e2e.failures") { recorder in
            ownSession.get(urlString: "x", successHandler: recorder.success, errorHandler: recorder.failure)
        }

        XCTAssertEqual(viaShared?.error?.transportCode, .cannotConnectToHost, String(describing: viaShared))
        XCTAssertEqual(viaOwn?.error?.transportCode, .cannotConnectToHost, String(describing: viaOwn))
        XCTAssertEqual(viaOwn?.error?.message, "Could not connect to the server.")
    }
}
