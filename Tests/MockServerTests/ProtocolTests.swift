import Foundation
import NetworkTestSupport
import XCTest

/// Request parsing seen through a raw socket: bodies, pipelining, and malformed input.
final class ProtocolTests: XCTestCase {
    func testChunkedRequestBodyIsDecoded() throws {
        let server = try startedServer()
        server.handler = { request in MockResponse(body: request.body) }
        let raw = try RawClient(port: server.port)

        raw.send(
            "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5\r\nhello\r\n6;name=value\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n")
        let reply = try XCTUnwrap(raw.readResponse())

        XCTAssertEqual(reply.text, "hello world")
        let request = try XCTUnwrap(server.takeRequest(timeout: 1))
        XCTAssertEqual(request.bodyText, "hello world")
        XCTAssertEqual(request.header("transfer-encoding"), "chunked")
    }

    func testPipelinedRequestsOnOneConnectionAreAnsweredInOrder() throws {
        let server = try startedServer()
        server.handler = { request in MockResponse(text: "\(request.path) \(request.bodyText ?? "")") }
        let raw = try RawClient(port: server.port)

        raw.send(
            "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
                + "GET /b?x=1 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "\r\nPOST /c HTTP/1.1\r\nHost: x\r\ncontent-length: 0\r\n\r\n")
        let replies = (0..<3).compactMap { _ in raw.readResponse() }

        XCTAssertEqual(replies.map(\.text), ["/a abc", "/b ", "/c "])
        XCTAssertEqual(Set(server.recordedRequests.map(\.connectionID)).count, 1)
    }

    func testExpectContinueGetsAnInterimReply() throws {
        let server = try startedServer()
        server.handler = { request in MockResponse(body: request.body) }
        let raw = try RawClient(port: server.port)

        raw.send("PUT / HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        let interim = try XCTUnwrap(raw.readResponse(hasBody: false))
        raw.send("data")
        let reply = try XCTUnwrap(raw.readResponse())

        XCTAssertEqual(interim.status, 100)
        XCTAssertEqual(reply.text, "data")
    }

    func testHTTP10ClosesAfterTheReply() throws {
        let server = try startedServer()
        server.handler = { _ in MockResponse(text: "old") }
        let raw = try RawClient(port: server.port)

        raw.send("GET / HTTP/1.0\r\n\r\n")
        let reply = try XCTUnwrap(raw.readResponse())

        XCTAssertEqual(reply.text, "old")
        XCTAssertTrue(raw.serverClosed())
    }

    func testAbsoluteFormTargetIsReducedToPathAndQuery() throws {
        let server = try startedServer()
        let raw = try RawClient(port: server.port)

        raw.send("GET http://example.com/p/q?a=1 HTTP/1.1\r\nHost: example.com\r\n\r\n")
        _ = raw.readResponse()

        let request = try XCTUnwrap(server.takeRequest(timeout: 1))
        XCTAssertEqual(request.path, "/p/q")
        XCTAssertEqual(request.queryValue("a"), "1")
    }

    func testMalformedRequestsGet400AndTheServerKeepsServing() throws {
        let server = try startedServer()
        server.handler = { _ in MockResponse(text: "fine") }
        let malformed = [
            "NONSENSE\r\n\r\n",
            "GET /  HTTP/1.1\r\n\r\n",
            "GET / HTTP/2.0\r\n\r\n",
            "G(T / HTTP/1.1\r\n\r\n",
            "GET / HTTP/1.1\r\nNo colon here\r\n\r\n",
            "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n",
            "GET / HTTP/1.1\r\nX: a\u{1}b\r\n\r\n",
            "GET / HTTP/1.1\r\n folded: x\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: ten\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
            "POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab",
            "POST / HTTP/1.1\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcdef\r\n0\r\n\r\n",
            "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n11111111111111111\r\n",
            "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 70_000) + "\r\n\r\n",
        ]

        for (index, bytes) in malformed.enumerated() {
            let raw = try RawClient(port: server.port)
            raw.send(bytes)
            let reply = raw.readResponse()
            XCTAssertEqual(reply?.status, 400, "case \(index): \(bytes.prefix(60).debugDescription)")
            XCTAssertEqual(reply?.headers["connection"], "close", "case \(index)")
            XCTAssertTrue(raw.serverClosed(), "case \(index)")
        }

        let good = try RawClient(port: server.port)
        good.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(good.readResponse()?.text, "fine")
        XCTAssertEqual(server.requestCount, 1, "malformed requests are not recorded")
    }

    func testBodiesOverTheLimitGet413AndTheServerKeepsServing() throws {
        let server = try startedServer(maxRequestBodySize: 1024)
        server.handler = { request in MockResponse(text: "got \(request.body.count)") }

        let declared = try RawClient(port: server.port)
        declared.send("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n")
        let declaredReply = declared.readResponse()

        let chunked = try RawClient(port: server.port)
        chunked.send("POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunked.send("400\r\n" + String(repeating: "a", count: 1024) + "\r\n1\r\nb\r\n0\r\n\r\n")
        let chunkedReply = chunked.readResponse()

        let atLimit = try RawClient(port: server.port)
        atLimit.send(
            "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 1024\r\n\r\n" + String(repeating: "a", count: 1024)
        )

        XCTAssertEqual(declaredReply?.status, 413)
        XCTAssertTrue(declared.serverClosed())
        XCTAssertEqual(chunkedReply?.status, 413)
        XCTAssertTrue(chunked.serverClosed())
        XCTAssertEqual(atLimit.readResponse()?.text, "got 1024")
    }
}
