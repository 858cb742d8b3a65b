import Foundation
import LoopbackHTTP
import XCTest

/// The shared loopback server against a hostile review: a handler's header cannot split the reply, a target
/// is routed only on its path, a peer that never reads a reply does not keep its connection, and chunk
/// extensions count against the request's size.
final class LoopbackHardeningTests: XCTestCase {
    private var servers: [LoopbackServer] = []

    override func tearDown() {
        for server in servers { server.stop() }
        super.tearDown()
    }

    private func started(
        _ adjust: (inout LoopbackLimits) -> Void = { _ in }, handler: @escaping LoopbackServer.Handler
    ) throws -> LoopbackServer {
        var limits = LoopbackLimits()
        adjust(&limits)
        let server = LoopbackServer(limits: limits, handler: handler)
        try server.start()
        servers.append(server)
        return server
    }

    /// Answers with the path and query it routed on, and the body's length.
    private func echoServer(_ adjust: (inout LoopbackLimits) -> Void = { _ in }) throws -> LoopbackServer {
        try started(adjust) { request, responder in
            let text = "\(request.path) \(request.query ?? "-") \(request.body.count)"
            responder.reply(status: 200, body: Data(text.utf8))
        }
    }

    func testAHandlersHeaderThatWouldSplitTheReplyGets500AndIsNeverWritten() throws {
        let bad: [String: (name: String, value: String)] = [
            "/crlf": ("X-Next", "a\r\nSet-Cookie: stolen=1"),
            "/lf": ("X-Next", "a\nSet-Cookie: stolen=1"),
            "/nul": ("X-Next", "a\0b"),
            "/name": ("Set-Cookie: stolen=1\r\nX", "v"),
            "/space": ("Bad Name", "v"),
            "/empty": ("", "v"),
        ]
        let server = try started { request, responder in
            let field = bad[request.path] ?? ("X-Fine", "a\tb ok")
            if request.query == "stream" {
                responder.open(headers: [field]).finish()
            } else {
                responder.reply(status: 200, headers: [field], body: Data("ok".utf8))
            }
        }
        for path in bad.keys.sorted() {
            for query in ["whole", "stream"] {
                let client = try RawClient(port: server.port)
                client.send("GET \(path)?\(query) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let response = client.readResponse()
                XCTAssertEqual(response?.status, 500, "\(path)?\(query)")
                XCTAssertNil(response?.headers["set-cookie"], "\(path)?\(query)")
                XCTAssertNil(response?.headers["x-next"], "\(path)?\(query)")
            }
        }
        let fine = try RawClient(port: server.port)
        fine.send("GET /fine HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = fine.readResponse()
        XCTAssertEqual(response?.status, 200)
        XCTAssertEqual(response?.headers["x-fine"], "a\tb ok", "a tab is a valid value byte")
    }

    func testATargetIsAbsoluteFormOnlyWhenASchemeStartsIt() throws {
        let server = try echoServer()
        let client = try RawClient(port: server.port)

        client.send("GET /page?next=http://x/api/clear HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.text, "/page next=http://x/api/clear 0")
        client.send("GET /a://b/c HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.text, "/a://b/c - 0")
        client.send("GET HTTP+S.x-1://host:1/api?q=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.text, "/api q=1 0")
    }

    func testATargetNeitherOriginNorAbsoluteFormGets400() throws {
        let server = try echoServer()
        for target in ["*", "evil", "api/clear", "1http://x/api", "?q=1", "://x/api"] {
            let client = try RawClient(port: server.port)
            client.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
            XCTAssertEqual(client.readResponse()?.status, 400, target)
            XCTAssertTrue(client.serverClosed(), target)
        }
    }

    func testAPeerThatNeverReadsABigReplyLosesItsConnectionAfterTheSendTimeout() throws {
        // More than loopback's socket buffers on both ends hold, so the send blocks.
        let body = Data(count: 32 * 1024 * 1024)
        let server = try started(
            { $0.sendTimeout = 0.5 }, handler: { _, responder in responder.reply(status: 200, body: body) })
        let client = try RawClient(port: server.port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let serving = expectation(
            for: NSPredicate { _, _ in server.openConnectionCount == 1 }, evaluatedWith: nil)
        wait(for: [serving], timeout: 5)

        let freed = expectation(
            for: NSPredicate { _, _ in server.openConnectionCount == 0 }, evaluatedWith: nil)
        wait(for: [freed], timeout: 10)
    }

    func testAPeerThatReadsABigReplyGetsAllOfIt() throws {
        let body = Data(repeating: 7, count: 8 * 1024 * 1024)
        let server = try started { _, responder in responder.reply(status: 200, body: body) }
        let client = try RawClient(port: server.port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.body, [UInt8](body))
    }

    func testChunkExtensionsCountAgainstTheRequestsSize() throws {
        let server = try echoServer {
            $0.maxBodyBytes = 100
            $0.maxHeadBytes = 1024
        }
        // 20 one-byte chunks, each line about 1 KB of extensions: within each line's own budget, but
        // twenty times what the body and head limits allow together.
        let chunk = "1;ext=" + String(repeating: "e", count: 1000) + "\r\na\r\n"
        let client = try RawClient(port: server.port)
        client.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        client.send(String(repeating: chunk, count: 20) + "0\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.status, 413)
        XCTAssertTrue(client.serverClosed())

        let modest = try RawClient(port: server.port)
        modest.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        modest.send("2;a=b\r\nhi\r\n3\r\nyou\r\n0\r\n\r\n")
        XCTAssertEqual(modest.readResponse()?.text, "/ - 5", "a few short extensions are fine")
    }
}
