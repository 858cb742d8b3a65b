import Foundation
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Scripted replies, recorded requests and response framing, seen through URLSession.
final class ScriptingTests: XCTestCase {
    private static let session = TestSessions.make()

    override class func tearDown() {
        session.finishTasksAndInvalidate()
        super.tearDown()
    }

    private var session: URLSession { Self.session }

    private struct Employee: Codable, Equatable {
        var id: Int
        var name: String
    }

    func testQueuedRepliesAreServedInOrderThenNotFound() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(text: "first"))
        server.enqueue(contentsOf: [MockResponse(status: 201, text: "second"), MockResponse(text: "third")])
        XCTAssertEqual(server.queuedResponseCount, 3)

        let replies = (0..<4).map { _ in fetch(server.url("/x"), with: session) }

        XCTAssertEqual(replies.map(\.status), [200, 201, 200, 404])
        XCTAssertEqual(replies.prefix(3).map(\.text), ["first", "second", "third"])
        XCTAssertEqual(server.queuedResponseCount, 0)
        XCTAssertEqual(server.requestCount, 4)
    }

    func testHandlerRoutesByMethodAndPath() throws {
        let server = try startedServer()
        server.handler = { request in
            switch (request.method, request.path) {
            case ("GET", "/employees"):
                return try .json([Employee(id: 1, name: "Ada")])
            case ("POST", "/employees"):
                return MockResponse(status: 201, body: request.body)
            default:
                return MockResponse(status: 404)
            }
        }

        let list = fetch(server.url("/employees"), with: session)
        let created = fetch(server.url("/employees"), with: session, method: "POST", body: Data("new".utf8))
        let missing = fetch(server.url("/nowhere"), with: session)

        XCTAssertEqual(list.status, 200)
        XCTAssertEqual(list.header("Content-Type"), "application/json")
        XCTAssertEqual(
            try JSONDecoder().decode([Employee].self, from: list.data), [Employee(id: 1, name: "Ada")])
        XCTAssertEqual(created.status, 201)
        XCTAssertEqual(created.text, "new")
        XCTAssertEqual(missing.status, 404)
    }

    func testAThrowingHandlerIsAnswered500() throws {
        struct Refusal: Error {}
        let server = try startedServer()
        server.handler = { _ in throw Refusal() }

        let reply = fetch(server.url("/"), with: session)

        XCTAssertEqual(reply.status, 500)
        XCTAssertTrue(reply.text.contains("Refusal"), reply.text)
    }

    func testQueueTakesPrecedenceOverHandler() throws {
        let server = try startedServer()
        server.handler = { _ in MockResponse(text: "handler") }
        server.enqueue(MockResponse(text: "queued"))

        XCTAssertEqual(fetch(server.url("/"), with: session).text, "queued")
        XCTAssertEqual(fetch(server.url("/"), with: session).text, "handler")
    }

    func testRecordsEveryFieldOfTheRequest() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(status: 204))
        let body = try JSONEncoder().encode(Employee(id: 7, name: "Grace"))

        let reply = fetch(
            server.url("/api/items?page=2&q=a%20b&flag"), with: session, method: "PUT",
            headers: ["Content-Type": "application/json", "X-Trace-ID": "abc"], body: body)

        XCTAssertEqual(reply.status, 204)
        let request = try XCTUnwrap(server.takeRequest(timeout: 5))
        XCTAssertEqual(request.method, "PUT")
        XCTAssertEqual(request.path, "/api/items")
        XCTAssertEqual(request.query, "page=2&q=a%20b&flag")
        XCTAssertEqual(
            request.queryItems,
            [
                URLQueryItem(name: "page", value: "2"), URLQueryItem(name: "q", value: "a b"),
                URLQueryItem(name: "flag", value: nil),
            ])
        XCTAssertEqual(request.queryValue("q"), "a b")
        XCTAssertEqual(request.header("x-trace-id"), "abc")
        XCTAssertEqual(request.header("CONTENT-TYPE"), "application/json")
        XCTAssertEqual(request.header("Content-Length"), String(body.count))
        XCTAssertEqual(request.body, body)
        XCTAssertEqual(try request.decodedBody(as: Employee.self), Employee(id: 7, name: "Grace"))
        XCTAssertEqual(request.version, "HTTP/1.1")
        XCTAssertEqual(request.sequenceNumber, 0)
        XCTAssertEqual(server.requestCount, 1)
        XCTAssertEqual(server.recordedRequests.map(\.path), ["/api/items"])
    }

    func testTakeRequestReturnsEachRequestOnceAndTimesOut() throws {
        let server = try startedServer()
        _ = fetch(server.url("/one"), with: session)
        _ = fetch(server.url("/two"), with: session)

        XCTAssertEqual(server.takeRequest(timeout: 1)?.path, "/one")
        XCTAssertEqual(server.takeRequest(timeout: 1)?.path, "/two")
        let start = Date()
        XCTAssertNil(server.takeRequest(timeout: 0.2))
        let waited = Date().timeIntervalSince(start)
        XCTAssertGreaterThanOrEqual(waited, 0.19)
        XCTAssertLessThan(waited, 2)
    }

    func testTakeRequestWakesWhenARequestArrives() throws {
        let server = try startedServer()
        let url = try XCTUnwrap(server.url("/late"))
        let done = expectation(description: "reply")
        session.dataTask(with: url) { _, _, _ in done.fulfill() }.resume()

        XCTAssertEqual(server.takeRequest(timeout: 5)?.path, "/late")
        wait(for: [done], timeout: 5)
    }

    func testJSONAndTextReplies() throws {
        let server = try startedServer()
        server.enqueue(try .json(Employee(id: 3, name: "Linus"), status: 201))
        server.enqueue(.json(raw: #"{"ok":true}"#))
        server.enqueue(try .json("a string"))
        server.enqueue(MockResponse(status: 418, headers: ["X-Teapot": "yes"], text: "short and stout"))

        let encoded = fetch(server.url("/"), with: session)
        let literal = fetch(server.url("/"), with: session)
        let string = fetch(server.url("/"), with: session)
        let text = fetch(server.url("/"), with: session)

        XCTAssertEqual(encoded.status, 201)
        XCTAssertEqual(
            try JSONDecoder().decode(Employee.self, from: encoded.data), Employee(id: 3, name: "Linus"))
        XCTAssertEqual(literal.text, #"{"ok":true}"#)
        XCTAssertEqual(literal.header("Content-Type"), "application/json")
        XCTAssertEqual(string.text, #""a string""#)
        XCTAssertEqual(text.status, 418)
        XCTAssertEqual(text.header("X-Teapot"), "yes")
        XCTAssertEqual(text.header("Content-Type"), "text/plain; charset=utf-8")
        XCTAssertEqual(text.text, "short and stout")
    }

    func testChunkedReplyArrivesIntact() throws {
        let server = try startedServer()
        let body = Data((0..<10_000).map { UInt8($0 % 251) })
        server.handler = { _ in MockResponse(body: body).chunked(size: 333) }

        let reply = fetch(server.url("/big"), with: session)
        let raw = try RawClient(port: server.port)
        raw.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
        let rawReply = try XCTUnwrap(raw.readResponse())

        XCTAssertEqual(reply.status, 200)
        XCTAssertEqual(reply.data, body)
        XCTAssertEqual(rawReply.headers["transfer-encoding"], "chunked")
        XCTAssertNil(rawReply.headers["content-length"])
        XCTAssertEqual(Data(rawReply.body), body)
    }

    func testKeepAliveReusesTheConnectionUnlessTheReplySaysClose() throws {
        let server = try startedServer()
        server.enqueue(contentsOf: [
            MockResponse(text: "a"), MockResponse(text: "b"),
            MockResponse(headers: ["Connection": "close"], text: "c"), MockResponse(text: "d"),
        ])

        let replies = (0..<4).map { _ in fetch(server.url("/"), with: session) }

        XCTAssertEqual(replies.map(\.text), ["a", "b", "c", "d"])
        let connections = server.recordedRequests.map(\.connectionID)
        XCTAssertEqual(connections[0], connections[1], "second request reuses the kept-alive connection")
        XCTAssertEqual(connections[1], connections[2])
        XCTAssertNotEqual(connections[2], connections[3], "Connection: close forces a new connection")
    }

    func testClientConnectionCloseIsHonoured() throws {
        let server = try startedServer()
        server.handler = { _ in MockResponse(text: "ok") }
        let raw = try RawClient(port: server.port)

        raw.send("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let reply = try XCTUnwrap(raw.readResponse())

        XCTAssertEqual(reply.headers["connection"], "close")
        XCTAssertEqual(reply.text, "ok")
        XCTAssertTrue(raw.serverClosed())
    }

    func testNoBodyWith204Or304OrToHEADAndTheConnectionStaysUsable() throws {
        let server = try startedServer()
        let body = Data(repeating: 0x41, count: 1000)
        server.enqueue(contentsOf: [
            MockResponse(status: 204, body: body), MockResponse(text: "after 204"),
            MockResponse(status: 304, body: body), MockResponse(text: "after 304"),
            MockResponse(body: body), MockResponse(text: "after HEAD"),
        ])

        let noContent = fetch(server.url("/"), with: session)
        let afterNoContent = fetch(server.url("/"), with: session)
        let notModified = fetch(server.url("/"), with: session)
        let afterNotModified = fetch(server.url("/"), with: session)
        let head = fetch(server.url("/"), with: session, method: "HEAD")
        let afterHead = fetch(server.url("/"), with: session)

        XCTAssertEqual([noContent.status, notModified.status, head.status], [204, 304, 200])
        XCTAssertEqual([noContent.data.count, notModified.data.count, head.data.count], [0, 0, 0])
        XCTAssertEqual(head.header("Content-Length"), "1000", "HEAD announces the GET reply's length")
        XCTAssertEqual(
            [afterNoContent.text, afterNotModified.text, afterHead.text],
            ["after 204", "after 304", "after HEAD"])
        XCTAssertEqual(Set(server.recordedRequests.map(\.connectionID)).count, 1)
    }

    func testNoBodyBytesOnTheWireAfter204OrHEAD() throws {
        let server = try startedServer()
        server.enqueue(contentsOf: [
            MockResponse(status: 204, text: "must not be sent"), MockResponse(text: "one"),
            MockResponse(text: "must not be sent either"), MockResponse(text: "two"),
        ])
        let raw = try RawClient(port: server.port)

        raw.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n")
        let noContent = try XCTUnwrap(raw.readResponse(hasBody: false))
        let one = try XCTUnwrap(raw.readResponse())
        raw.send("HEAD /c HTTP/1.1\r\nHost: x\r\n\r\nGET /d HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try XCTUnwrap(raw.readResponse(hasBody: false))
        let two = try XCTUnwrap(raw.readResponse())

        XCTAssertEqual(noContent.status, 204)
        XCTAssertNil(noContent.headers["content-length"])
        XCTAssertEqual(one.text, "one", "the byte after the 204 head is the next reply's status line")
        XCTAssertEqual(head.headers["content-length"], "23")
        XCTAssertEqual(
            two.text, "two", "the byte after the HEAD reply's head is the next reply's status line")
    }

    func testRangeRequestsOnAStaticBody() throws {
        let server = try startedServer()
        let body = Data((0..<100).map { UInt8($0) })
        server.handler = { _ in MockResponse(body: body).supportingRanges() }

        let full = fetch(server.url("/file"), with: session)
        let tail = fetch(server.url("/file"), with: session, headers: ["Range": "bytes=90-"])
        let middle = fetch(server.url("/file"), with: session, headers: ["Range": "bytes=10-19"])
        let suffix = fetch(server.url("/file"), with: session, headers: ["Range": "bytes=-5"])
        let beyond = fetch(server.url("/file"), with: session, headers: ["Range": "bytes=100-"])

        XCTAssertEqual(full.status, 200)
        XCTAssertEqual(full.header("Accept-Ranges"), "bytes")
        XCTAssertEqual(full.data, body)
        XCTAssertEqual(tail.status, 206)
        XCTAssertEqual(tail.header("Content-Range"), "bytes 90-99/100")
        XCTAssertEqual(tail.data, body.subdata(in: 90..<100))
        XCTAssertEqual(middle.status, 206)
        XCTAssertEqual(middle.header("Content-Range"), "bytes 10-19/100")
        XCTAssertEqual(middle.data, body.subdata(in: 10..<20))
        XCTAssertEqual(suffix.header("Content-Range"), "bytes 95-99/100")
        XCTAssertEqual(suffix.data, body.subdata(in: 95..<100))
        XCTAssertEqual(beyond.status, 416)
        XCTAssertEqual(beyond.header("Content-Range"), "bytes */100")
        XCTAssertEqual(beyond.data.count, 0)
    }
}
