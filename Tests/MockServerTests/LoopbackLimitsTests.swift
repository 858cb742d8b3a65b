import Foundation
import LoopbackHTTP
import XCTest

/// The shared loopback server against hostile peers: every limit of ``LoopbackLimits`` refuses, times out or
/// drops what goes beyond it, and a peer that stops reading a stream costs no more than the stream's queue.
final class LoopbackLimitsTests: XCTestCase {
    private var servers: [LoopbackServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
        super.tearDown()
    }

    /// A started server answering every request with its method, path, query, Host and body.
    private func echoServer(_ adjust: (inout LoopbackLimits) -> Void = { _ in }) throws -> LoopbackServer {
        var limits = LoopbackLimits()
        adjust(&limits)
        let server = LoopbackServer(limits: limits) { request, responder in
            let text = "\(request.method) \(request.path) \(request.query ?? "-") \(request.host ?? "-") "
            responder.reply(
                status: 200, headers: [("Content-Type", "text/plain")], body: Data(text.utf8) + request.body)
        }
        try server.start()
        servers.append(server)
        return server
    }

    func testARequestIsReadWholeAndAnsweredOnAKeptAliveConnection() throws {
        let server = try echoServer()
        let client = try RawClient(port: server.port)

        client.send(
            "POST /api/clear?token=t%20x HTTP/1.1\r\nHost: 127.0.0.1:1\r\nContent-Length: 2\r\n\r\nok")
        let first = client.readResponse()
        client.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let second = client.readResponse()

        XCTAssertEqual(first?.text, "POST /api/clear token=t%20x 127.0.0.1:1 ok")
        XCTAssertEqual(first?.headers["content-type"], "text/plain")
        XCTAssertEqual(second?.text, "GET / - localhost ")
    }

    func testARequestLineOverItsLimitGets414AndTheConnectionCloses() throws {
        let server = try echoServer { $0.maxRequestLineBytes = 100 }
        let atLimit = "GET /" + String(repeating: "a", count: 100 - "GET / HTTP/1.1".count) + " HTTP/1.1"

        let client = try RawClient(port: server.port)
        client.send(atLimit + "\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.status, 200, "a line of exactly the limit is served")
        client.send("GET /" + String(repeating: "a", count: 5_000) + " HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.status, 414)
        XCTAssertTrue(client.serverClosed())
    }

    func testAHeadOverItsLimitGets431AndTheConnectionCloses() throws {
        let server = try echoServer { $0.maxHeadBytes = 1024 }
        let client = try RawClient(port: server.port)

        let fields = (0..<40).map { "X-Field-\($0): \(String(repeating: "v", count: 40))\r\n" }.joined()
        client.send("GET / HTTP/1.1\r\nHost: x\r\n" + fields + "\r\n")

        XCTAssertEqual(client.readResponse()?.status, 431)
        XCTAssertTrue(client.serverClosed())
    }

    func testABodyOverItsLimitGets413DeclaredOrChunked() throws {
        let server = try echoServer { $0.maxBodyBytes = 100 }

        let declared = try RawClient(port: server.port)
        declared.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n")
        let chunked = try RawClient(port: server.port)
        chunked.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunked.send("64\r\n" + String(repeating: "a", count: 100) + "\r\n1\r\nb\r\n0\r\n\r\n")

        XCTAssertEqual(declared.readResponse()?.status, 413)
        XCTAssertTrue(declared.serverClosed())
        XCTAssertEqual(chunked.readResponse()?.status, 413)
        XCTAssertTrue(chunked.serverClosed())
    }

    func testAPeerThatSendsHalfARequestAndStallsGets408() throws {
        let server = try echoServer { $0.requestTimeout = 0.3 }
        let stalled = try RawClient(port: server.port)
        let slowBody = try RawClient(port: server.port)

        stalled.send("GET / HTTP/1.1\r\nHo")
        slowBody.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc")

        // RawClient gives up after 5 s of silence: without the limit there is no reply at all.
        XCTAssertEqual(stalled.readResponse()?.status, 408)
        XCTAssertTrue(stalled.serverClosed())
        XCTAssertEqual(slowBody.readResponse()?.status, 408)
    }

    func testAConnectionIdleBetweenRequestsIsClosedWithoutAReply() throws {
        let server = try echoServer { $0.idleTimeout = 0.3 }
        let client = try RawClient(port: server.port)

        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.status, 200)

        XCTAssertEqual(client.readToEnd(), [], "closed, nothing sent")
        XCTAssertTrue(client.serverClosed())
    }

    func testConnectionsBeyondTheMaximumAreClosedAtOnceWhenNoneIsIdle() throws {
        let server = try echoServer { $0.maxConnections = 3 }
        let held = try (0..<3).map { _ in try RawClient(port: server.port) }
        // Each in the middle of a request: busy, so none gives its place to a newcomer.
        for client in held { client.send("GET / HTTP/1.1\r\n") }
        let busy = expectation(
            for: NSPredicate { _, _ in server.openConnectionCount == 3 && server.idleConnectionCount == 0 },
            evaluatedWith: nil)
        wait(for: [busy], timeout: 5)

        let refused = try (0..<5).map { _ in try RawClient(port: server.port, timeout: 2) }
        for client in refused {
            client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertTrue(client.serverClosed(), "closed before any reply")
        }
        XCTAssertEqual(server.openConnectionCount, 3)

        held[0].send("Host: x\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(held[0].readResponse()?.status, 200)
        XCTAssertTrue(held[0].serverClosed())
        let freed = expectation(
            for: NSPredicate { _, _ in server.openConnectionCount == 2 }, evaluatedWith: nil)
        wait(for: [freed], timeout: 5)
        let later = try RawClient(port: server.port)
        later.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(later.readResponse()?.status, 200, "a freed place is served again")
    }

    func testAPeerThatSendsNothingIsClosedAfterTheIdleTimeout() throws {
        let server = try echoServer { $0.idleTimeout = 0.05 }
        let silent = try RawClient(port: server.port)

        // RawClient gives up after 5 s of silence: without the limit the server never closes.
        XCTAssertEqual(silent.readToEnd(), [], "closed, nothing sent")
        XCTAssertTrue(silent.serverClosed())
        let freed = expectation(
            for: NSPredicate { _, _ in server.openConnectionCount == 0 }, evaluatedWith: nil)
        wait(for: [freed], timeout: 5)
    }

    func testAPeerTricklingItsHeadGets408AtTheRequestTimeoutHoweverOftenItSends() throws {
        let server = try echoServer {
            $0.requestTimeout = 0.3
            $0.idleTimeout = nil
        }
        let trickling = try RawClient(port: server.port)
        // A byte every 20 ms: never silent long enough for a per-read timeout, and 32 KiB of head (the
        // head's limit) would take ten minutes.
        let drip = Trickle(fd: trickling.fd, bytes: Array("GET / HTTP/1.1\r\nX-Slow: ".utf8), every: 0.02)
        defer { drip.stop() }

        XCTAssertEqual(trickling.readResponse()?.status, 408)
        XCTAssertTrue(trickling.serverClosed())
    }

    func testSilentPeersHoldingEveryPlaceGiveWayToANewClient() throws {
        let server = try echoServer()  // the inspector's limits: 16 connections, 30 s idle timeout
        let limit = try XCTUnwrap(server.limits.maxConnections)
        let silent = try (0..<limit).map { _ in try RawClient(port: server.port) }
        let full = expectation(
            for: NSPredicate { _, _ in server.openConnectionCount == limit }, evaluatedWith: nil)
        wait(for: [full], timeout: 5)

        let client = try RawClient(port: server.port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.status, 200, "served at once, not after the idle timeout")
        XCTAssertTrue(silent[0].serverClosed(), "the connection idle longest gave its place")

        let next = try RawClient(port: server.port)
        next.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(next.readResponse()?.status, 200)
        XCTAssertTrue(silent[1].serverClosed())
        XCTAssertLessThanOrEqual(server.openConnectionCount, limit)
    }
}
