import Foundation
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Bodies produced on demand: finite and endless, with a Content-Length or chunked, throttled,
/// and stopped by the client closing or the server stopping.
final class StreamedBodyTests: XCTestCase {
    private static let session = TestSessions.make()

    override class func tearDown() {
        session.finishTasksAndInvalidate()
        super.tearDown()
    }

    private var session: URLSession { Self.session }
    private let megabyte = 1024 * 1024
    private let original = noise(count: 300_000)
    private let oddSizes = [1, 0, 4096, 77, 65_536, 3, 100_000]

    func testFiniteStreamWithContentLengthArrivesIntact() throws {
        let server = try startedServer()
        let reply = MockResponse(content: .pieces(of: original, sizes: oddSizes, declaringLength: true))
        server.enqueue(contentsOf: [reply, reply])

        let fetched = fetch(server.url("/"), with: session)
        let raw = try RawClient(port: server.port)
        raw.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let wire = try XCTUnwrap(raw.readResponse())

        XCTAssertEqual(fetched.data, Data(original), "a reply queued twice starts its stream over")
        XCTAssertEqual(wire.headers["content-length"], "300000")
        XCTAssertNil(wire.headers["transfer-encoding"])
        XCTAssertEqual(wire.body, original)
    }

    func testStreamOfUnknownLengthIsSentChunkedAndKeepsTheConnection() throws {
        let server = try startedServer()
        let unknown = MockResponse(content: .pieces(of: original, sizes: oddSizes, declaringLength: false))
        let rechunked = MockResponse(content: .pieces(of: original, sizes: oddSizes, declaringLength: true))
            .chunked(size: 1000)
        server.enqueue(contentsOf: [unknown, rechunked, unknown])
        let raw = try RawClient(port: server.port)

        raw.send("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = try XCTUnwrap(raw.readResponse())
        let second = try XCTUnwrap(raw.readResponse())
        let fetched = fetch(server.url("/3"), with: session)

        XCTAssertEqual(first.headers["transfer-encoding"], "chunked")
        XCTAssertNil(first.headers["content-length"])
        XCTAssertEqual(first.body, original)
        XCTAssertEqual(second.headers["transfer-encoding"], "chunked")
        XCTAssertEqual(second.body, original)
        XCTAssertEqual(fetched.data, Data(original))
        XCTAssertEqual(Set(server.recordedRequests.prefix(2).map(\.connectionID)).count, 1)
    }

    func testEndlessBodyStopsWhenTheClientCloses() throws {
        let server = try startedServer()
        let probe = ReleaseProbe(expectation(description: "the server let go of the stream"))
        server.enqueue(MockResponse(content: probe.tracking(.repeating(0, count: nil))))
        var client: RawClient? = try RawClient(port: server.port)

        client?.send("GET /endless HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try XCTUnwrap(client?.readHead())
        let read = client?.discard(64 * megabyte)
        client = nil  // closes the socket with unread bytes: the server's next write fails

        wait(for: [probe.expectation], timeout: 5)
        XCTAssertEqual(head.headers["transfer-encoding"], "chunked")
        XCTAssertEqual(read, 64 * megabyte)
        let start = Date()
        server.stop()
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    }

    func testEndlessBodyStopsWhenTheServerStops() throws {
        let server = try startedServer()
        let probe = ReleaseProbe(expectation(description: "the server let go of the stream"))
        server.enqueue(MockResponse(content: probe.tracking(.repeating(1, count: nil))))
        let client = try RawClient(port: server.port)
        client.send("GET /endless HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertNotNil(client.readHead())
        XCTAssertEqual(client.discard(megabyte), megabyte)

        // The client stops reading, so the server is blocked writing when it is told to stop.
        let start = Date()
        server.stop()

        XCTAssertLessThan(Date().timeIntervalSince(start), 2)
        wait(for: [probe.expectation], timeout: 1)
        _ = client.readToEnd()
        XCTAssertTrue(client.serverClosed())
    }

    func testFourGiBBodyWithContentLengthCanBeReadInPart() throws {
        let server = try startedServer()
        let probe = ReleaseProbe(expectation(description: "the server let go of the stream"))
        let fourGiB = 4 << 30
        server.enqueue(MockResponse(content: probe.tracking(.repeating(0xAB, count: fourGiB))))

        let outcome = try readPartially(
            server.url("/huge"), limit: 32 * megabyte, expected: 0xAB, timeout: 90)

        wait(for: [probe.expectation], timeout: 5)
        XCTAssertGreaterThanOrEqual(outcome.received, 32 * megabyte)
        XCTAssertEqual(outcome.wrong, 0)
        XCTAssertNil(outcome.failure)
        let raw = try RawClient(port: server.port)
        server.enqueue(MockResponse(content: .repeating(0, count: fourGiB)))
        raw.send("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(raw.readResponse(hasBody: false)?.headers["content-length"], "4294967296")
    }

    func testHugeContentLengthWithAShortStreamClosesAfterWhatTheStreamGave() throws {
        let server = try startedServer()
        let short = MockResponse(
            content: .stream(length: 4 << 30) {
                var sent = false
                return {
                    defer { sent = true }
                    return sent ? nil : Data(repeating: 7, count: 1_000_000)
                }
            })
        server.enqueue(contentsOf: [short, short])
        let raw = try RawClient(port: server.port)

        raw.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try XCTUnwrap(raw.readHead())
        let rest = raw.readToEnd()
        let viaSession = fetch(server.url("/"), with: session)

        XCTAssertEqual(head.headers["content-length"], "4294967296")
        XCTAssertEqual(rest, [UInt8](repeating: 7, count: 1_000_000))
        XCTAssertTrue(raw.serverClosed())
        XCTAssertNotNil(viaSession.error, "URLSession sees the reply cut short")
    }

    func testHeadAndBodylessStatusesNeverStartTheStream() throws {
        let server = try startedServer()
        let started = CallCounter()
        server.handler = { request in
            MockResponse(
                status: request.path == "/none" ? 204 : 200,
                content: .stream(length: 5) {
                    started.increment()
                    var sent = false
                    return {
                        defer { sent = true }
                        return sent ? nil : Data("hello".utf8)
                    }
                })
        }
        let raw = try RawClient(port: server.port)

        raw.send("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try XCTUnwrap(raw.readResponse(hasBody: false))
        raw.send("GET /none HTTP/1.1\r\nHost: x\r\n\r\n")
        let noContent = try XCTUnwrap(raw.readResponse(hasBody: false))
        let startsBeforeGet = started.count
        raw.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let get = try XCTUnwrap(raw.readResponse())

        XCTAssertEqual(head.headers["content-length"], "5")
        XCTAssertEqual(noContent.status, 204)
        XCTAssertNil(noContent.headers["content-length"])
        XCTAssertEqual(startsBeforeGet, 0)
        XCTAssertEqual(get.text, "hello")
        XCTAssertEqual(started.count, 1)
    }

    func testThrottleAppliesToStreamedBodies() throws {
        let server = try startedServer()
        // 1 MB every 10 ms is about 100 MB/s: 20 MB take at least 19 pauses.
        server.enqueue(
            MockResponse(content: .repeating(3, count: 20 * megabyte)).throttled(bytes: megabyte, every: 0.01)
        )
        server.enqueue(
            MockResponse(content: .pieces(of: original, sizes: oddSizes, declaringLength: false))
                .throttled(bytes: 100_000, every: 0.1))

        let fast = fetch(server.url("/fast"), with: session)
        let slow = fetch(server.url("/slow"), with: session)

        XCTAssertEqual(fast.data, Data(repeating: 3, count: 20 * megabyte))
        XCTAssertGreaterThanOrEqual(fast.elapsed, 0.19)
        XCTAssertEqual(slow.data, Data(original))
        XCTAssertGreaterThanOrEqual(slow.elapsed, 0.3, "about 300 KB framed: four writes, three pauses")
    }
}
