import Foundation
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Delays, throttling, disconnects and stalls. Every fault here was first tried against
/// URLSession in a separate process: none of them crashes FoundationNetworking 6.3.1.
/// Each fault is put on the first request of a fresh server, so it meets a fresh
/// connection (libcurl silently resends on a reused one; see `MockResponse.Fault`).
final class FaultTests: XCTestCase {
    private static let session = TestSessions.make()

    override class func tearDown() {
        session.finishTasksAndInvalidate()
        super.tearDown()
    }

    private var session: URLSession { Self.session }
    private let body = Data((0..<2_000).map { UInt8($0 % 256) })

    func testDelayBeforeHeaders() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(body: body).delayed(beforeHeaders: 0.3))

        let reply = fetch(server.url("/"), with: session)

        XCTAssertEqual(reply.data, body)
        XCTAssertGreaterThanOrEqual(reply.elapsed, 0.3)
    }

    func testDelayBeforeBody() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(body: body).delayed(beforeBody: 0.3))

        let reply = fetch(server.url("/"), with: session)

        XCTAssertEqual(reply.data, body)
        XCTAssertGreaterThanOrEqual(reply.elapsed, 0.3)
    }

    func testDelayBeyondTheClientTimeoutTimesOut() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(body: body).delayed(beforeHeaders: 5))

        let reply = fetch(server.url("/"), with: session, timeout: 1)

        XCTAssertEqual(reply.error?.code, .timedOut)
    }

    func testThrottledBodyArrivesIntact() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(body: body).throttled(bytes: 500, every: 0.1))
        server.enqueue(MockResponse(body: body).chunked(size: 300).throttled(bytes: 700, every: 0.1))

        let fixed = fetch(server.url("/"), with: session)
        let chunked = fetch(server.url("/"), with: session)

        XCTAssertEqual(fixed.data, body)
        XCTAssertGreaterThanOrEqual(fixed.elapsed, 0.3, "four writes, three pauses")
        XCTAssertEqual(chunked.data, body)
        XCTAssertGreaterThanOrEqual(
            chunked.elapsed, 0.2, "about 2,054 framed bytes: three writes, two pauses")
    }

    func testDisconnectAtStartFailsTheClientAndRecordsNothing() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(body: body).withFault(.disconnectAtStart))
        server.enqueue(MockResponse(text: "next"))

        let failed = fetch(server.url("/"), with: session)
        let next = fetch(server.url("/"), with: session)

        XCTAssertNotNil(failed.error)
        XCTAssertNil(failed.response)
        XCTAssertEqual(next.text, "next")
        XCTAssertEqual(server.recordedRequests.count, 1, "the dropped connection carried no request")
    }

    func testDisconnectAfterRequestFailsTheClientAndRecordsTheRequest() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(body: body).withFault(.disconnectAfterRequest))
        server.enqueue(MockResponse(text: "next"))

        let failed = fetch(server.url("/gone"), with: session)
        let next = fetch(server.url("/"), with: session)

        // libcurl reports an empty reply; Apple's URLSession a lost connection.
        XCTAssertTrue(
            [.badServerResponse, .networkConnectionLost].contains(failed.error?.code),
            String(describing: failed.error))
        XCTAssertEqual(server.takeRequest(timeout: 1)?.path, "/gone")
        XCTAssertEqual(next.text, "next")
    }

    func testDisconnectMidBodyFailsTheClient() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(body: body).withFault(.disconnectMidBody))

        let failed = fetch(server.url("/"), with: session)

        XCTAssertNotNil(failed.error)
        XCTAssertEqual(server.requestCount, 1)
    }

    func testStallEndsInAClientTimeoutAndTheServerGoesOn() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(body: body).withFault(.stall))
        server.enqueue(MockResponse(text: "next"))

        let stalled = fetch(server.url("/stall"), with: session, timeout: 1)
        let next = fetch(server.url("/"), with: session)

        XCTAssertEqual(stalled.error?.code, .timedOut)
        XCTAssertGreaterThanOrEqual(stalled.elapsed, 0.9)
        XCTAssertEqual(server.takeRequest(timeout: 1)?.path, "/stall")
        XCTAssertEqual(next.text, "next")
    }

    func testStopInterruptsDelaysAndStallsPromptly() throws {
        for fault in [
            MockResponse(body: body).delayed(beforeHeaders: 30),
            MockResponse(body: body).delayed(beforeBody: 30),
            MockResponse(body: body).throttled(bytes: 1, every: 30),
            MockResponse(body: body).withFault(.stall),
        ] {
            let server = try startedServer()
            server.enqueue(fault)
            let url = try XCTUnwrap(server.url("/"))
            let done = expectation(description: "client finished")
            var request = URLRequest(url: url)
            request.timeoutInterval = 30
            session.dataTask(with: request) { _, _, error in
                XCTAssertNotNil(error)
                done.fulfill()
            }.resume()
            XCTAssertNotNil(server.takeRequest(timeout: 5))

            let start = Date()
            server.stop()

            XCTAssertLessThan(Date().timeIntervalSince(start), 1, "stop() does not wait for the delay")
            wait(for: [done], timeout: 5)
        }
    }

    // Byte-level checks of what each disconnect puts on the wire.

    func testDisconnectsOnTheWire() throws {
        let server = try startedServer()
        server.enqueue(contentsOf: [
            MockResponse(body: body).withFault(.disconnectAtStart),
            MockResponse(body: body).withFault(.disconnectAfterRequest),
            MockResponse(body: body).withFault(.disconnectMidBody),
        ])
        let request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"

        let atStart = try RawClient(port: server.port)
        XCTAssertEqual(atStart.readToEnd(), [], "closed before any byte")

        let afterRequest = try RawClient(port: server.port)
        afterRequest.send(request)
        XCTAssertEqual(afterRequest.readToEnd(), [], "closed without writing")

        let midBody = try RawClient(port: server.port)
        midBody.send(request)
        let bytes = midBody.readToEnd()
        let separator = Array("\r\n\r\n".utf8)
        let headEnd = try XCTUnwrap(bytes.indices.first { bytes[$0...].starts(with: separator) })
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
        XCTAssertTrue(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        XCTAssertTrue(head.contains("Content-Length: 2000\r\n"))
        XCTAssertEqual(Array(bytes[(headEnd + 4)...]), Array(body.prefix(1_000)), "half the body, then FIN")
        XCTAssertEqual(server.requestCount, 2)
    }
}
