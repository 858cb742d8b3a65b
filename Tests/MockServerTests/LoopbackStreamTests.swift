import Foundation
import LoopbackHTTP
import XCTest

/// Streamed replies of the shared loopback server: written as the peer reads, ended by either side, and
/// bounded for a peer that never reads.
final class LoopbackStreamTests: XCTestCase {
    /// The stream a request opened, handed from the connection's thread to the test.
    private final class Opened: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: LoopbackStream?
        let arrived = XCTestExpectation(description: "stream opened")
        let closed = XCTestExpectation(description: "onClose ran")
        var stream: LoopbackStream? { lock.withLock { stored } }
        func set(_ stream: LoopbackStream) {
            lock.withLock { stored = stream }
            arrived.fulfill()
        }
    }

    /// Opens a stream for `/api/events` and hands it to `opened`; answers any other path whole.
    private func streamingServer(
        queue: Int, opened: Opened, _ adjust: (inout LoopbackLimits) -> Void = { _ in }
    ) throws -> LoopbackServer {
        var limits = LoopbackLimits()
        limits.maxQueuedBytes = queue
        adjust(&limits)
        let server = LoopbackServer(limits: limits) { request, responder in
            guard request.path == "/api/events" else { return responder.reply(status: 200) }
            let stream = responder.open(
                headers: [("Content-Type", "text/event-stream")], onClose: { opened.closed.fulfill() })
            _ = stream.send(Data("event: hello\ndata: {}\n\n".utf8))
            opened.set(stream)
        }
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    func testAStreamReachesAReadingPeerInOrderAndEndsWhenFinished() throws {
        let opened = Opened()
        let server = try streamingServer(queue: 1024, opened: opened)
        let client = try RawClient(port: server.port)
        client.send("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        wait(for: [opened.arrived], timeout: 5)
        let stream = try XCTUnwrap(opened.stream)

        let head = try XCTUnwrap(client.readHead())
        for index in 0..<3 { XCTAssertTrue(stream.send(Data("data: \(index)\n\n".utf8))) }
        stream.finish()
        let body = String(decoding: client.readToEnd(), as: UTF8.self)

        XCTAssertEqual(head.status, 200)
        XCTAssertEqual(head.headers["content-type"], "text/event-stream")
        XCTAssertEqual(head.headers["connection"], "close")
        XCTAssertNil(head.headers["content-length"])
        XCTAssertEqual(body, "event: hello\ndata: {}\n\ndata: 0\n\ndata: 1\n\ndata: 2\n\n")
        wait(for: [opened.closed], timeout: 5)
        XCTAssertTrue(stream.isClosed)
        XCTAssertFalse(stream.send(Data("late".utf8)))
    }

    func testAPeerThatNeverReadsCostsAtMostTheQueueAndSendsAreDropped() throws {
        let opened = Opened()
        let queue = 64 * 1024
        let server = try streamingServer(queue: queue, opened: opened)
        var client: RawClient? = try RawClient(port: server.port)
        client?.send("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        wait(for: [opened.arrived], timeout: 5)
        let stream = try XCTUnwrap(opened.stream)

        // 64 MiB offered, far beyond what the kernel's socket buffers hold for a peer that reads nothing.
        let piece = Data(repeating: UInt8(ascii: "x"), count: 16 * 1024)
        var dropped = 0
        var mostQueued = 0
        for _ in 0..<4096 {
            if !stream.send(piece) { dropped += 1 }
            mostQueued = max(mostQueued, stream.queuedByteCount)
        }

        XCTAssertGreaterThan(dropped, 0, "a full queue drops and says so")
        XCTAssertLessThanOrEqual(mostQueued, queue)
        XCTAssertFalse(stream.isClosed, "dropping does not close the stream")
        client = nil  // closes the socket with the stream's bytes unread
        wait(for: [opened.closed], timeout: 5)
        XCTAssertTrue(stream.isClosed)
        XCTAssertEqual(stream.queuedByteCount, 0, "the queue is freed when the peer goes")
    }

    func testStoppingTheServerEndsItsStreams() throws {
        let opened = Opened()
        let server = try streamingServer(queue: 1024, opened: opened)
        let client = try RawClient(port: server.port)
        client.send("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        wait(for: [opened.arrived], timeout: 5)

        server.stop()

        wait(for: [opened.closed], timeout: 5)
        XCTAssertEqual(opened.stream?.isClosed, true)
    }

    func testAStreamWhosePeerStopsReadingIsClosedAfterTheSendTimeoutAndItsPlaceReused() throws {
        let opened = Opened()
        let server = try streamingServer(queue: 64 * 1024, opened: opened) {
            $0.sendTimeout = 0.05
            $0.maxConnections = 1
        }
        let tab = try RawClient(port: server.port)
        tab.send("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        wait(for: [opened.arrived], timeout: 5)
        let stream = try XCTUnwrap(opened.stream)

        // Fed as fast as the queue takes it until the kernel's buffers are full too: the tab reads nothing.
        // Without the timeout the stream stays open (and its place taken) for as long as the tab lives.
        let piece = Data(repeating: UInt8(ascii: "x"), count: 16 * 1024)
        let givingUp = Date(timeIntervalSinceNow: 10)
        while !stream.isClosed, Date() < givingUp { _ = stream.send(piece) }
        XCTAssertTrue(stream.isClosed, "closed after the send timeout")
        wait(for: [opened.closed], timeout: 5)
        let freed = expectation(
            for: NSPredicate { _, _ in server.openConnectionCount == 0 }, evaluatedWith: nil)
        wait(for: [freed], timeout: 5)
        let next = try RawClient(port: server.port)
        next.send("GET /page HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(next.readResponse()?.status, 200, "the only place is free again")
    }

    func testAQuietStreamOutlivesTheSendTimeout() throws {
        let opened = Opened()
        let server = try streamingServer(queue: 1024, opened: opened) { $0.sendTimeout = 0.05 }
        let tab = try RawClient(port: server.port)
        tab.send("GET /api/events HTTP/1.1\r\nHost: x\r\n\r\n")
        wait(for: [opened.arrived], timeout: 5)
        let stream = try XCTUnwrap(opened.stream)
        XCTAssertEqual(tab.readHead()?.status, 200)
        let hello = "event: hello\ndata: {}\n\n".utf8.count
        XCTAssertEqual(tab.discard(hello), hello)

        // Nothing to send is no stalled peer: a tab waits for events as long as the app is quiet.
        opened.closed.isInverted = true
        wait(for: [opened.closed], timeout: 0.5)
        XCTAssertTrue(stream.send(Data("data: later\n\n".utf8)))
        XCTAssertEqual(tab.discard(13), 13, "still delivered")
    }
}
