import Foundation
import NetworkTestSupport
import XCTest

/// A body handler's receiver gets a request's body piece by piece, hears how it ended (complete, dropped,
/// cut), can cut the connection after exactly N bytes, and can refuse before the body; the server records
/// such requests with their length only.
final class BodyReceiverTests: XCTestCase {
    /// What one receiver saw, filled on the connection's thread and read by the test after `ended`.
    private final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var storedPieces: [Data] = []
        private var storedEnding: MockBodyReceiver.Ending?
        let ended: XCTestExpectation

        init(_ ended: XCTestExpectation) {
            self.ended = ended
        }

        var pieces: [Data] { lock.withLock { storedPieces } }
        var ending: MockBodyReceiver.Ending? { lock.withLock { storedEnding } }

        func receiver(cutsAfterBytes: Int? = nil) -> MockBodyReceiver {
            MockBodyReceiver(
                cutsAfterBytes: cutsAfterBytes,
                receive: { [self] piece in lock.withLock { storedPieces.append(piece) } },
                finish: { [self] ending in
                    lock.withLock { storedEnding = ending }
                    ended.fulfill()
                    return MockResponse(status: 201, text: "stored")
                })
        }
    }

    private func serve(cutsAfterBytes: Int? = nil, maxRequestBodySize: Int = 1024) throws -> (
        MockServer, Seen
    ) {
        let server = try startedServer(maxRequestBodySize: maxRequestBodySize)
        let seen = Seen(expectation(description: "the body ends"))
        server.bodyHandler = { request in
            request.method == "PUT" ? seen.receiver(cutsAfterBytes: cutsAfterBytes) : nil
        }
        return (server, seen)
    }

    private static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    func testEveryPieceArrivesInOrderBeyondTheBodyLimitAndTheReceiverAnswers() throws {
        let (server, seen) = try serve()
        let body = Self.pattern(3 * 1_048_576)
        let client = try RawClient(port: server.port)

        client.send("PUT /big HTTP/1.1\r\nHost: x\r\nContent-Length: \(body.count)\r\n\r\n")
        client.send(body)
        let reply = client.readResponse()

        wait(for: [seen.ended], timeout: 10)
        XCTAssertEqual(reply?.status, 201)
        XCTAssertEqual(seen.ending, .complete)
        XCTAssertEqual(Data(seen.pieces.joined()), Data(body))
        XCTAssertGreaterThan(seen.pieces.count, 1)
        XCTAssertLessThanOrEqual(seen.pieces.map(\.count).max() ?? 0, 64 * 1024, "one receive at a time")
        let recorded = try XCTUnwrap(server.takeRequest())
        XCTAssertEqual(recorded.bodyLength, body.count)
        XCTAssertTrue(recorded.body.isEmpty, "the bytes went to the receiver only")
    }

    func testAChunkedBodyArrivesWithoutItsFramingAndTheConnectionStaysOpen() throws {
        let (server, seen) = try serve()
        let client = try RawClient(port: server.port)

        client.send(
            "PUT /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"
        )
        let first = client.readResponse()
        client.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        let second = client.readResponse()

        wait(for: [seen.ended], timeout: 10)
        XCTAssertEqual(first?.status, 201)
        XCTAssertEqual(second?.status, 404, "the next request on the connection goes the usual way")
        XCTAssertEqual(String(decoding: seen.pieces.joined(), as: UTF8.self), "hello world")
        XCTAssertEqual(server.recordedRequests.map(\.bodyLength), [11, 0])
    }

    func testADroppedConnectionIsReportedWithTheBytesThatCame() throws {
        let (server, seen) = try serve()
        do {
            let client = try RawClient(port: server.port)
            client.send("PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
            client.send(Self.pattern(400))
        }  // the client's socket closes here, in the middle of the body

        wait(for: [seen.ended], timeout: 10)
        XCTAssertEqual(seen.ending, .dropped)
        XCTAssertEqual(seen.pieces.joined().count, 400)
        XCTAssertEqual(server.takeRequest()?.bodyLength, 400, "recorded once the body ended")
    }

    func testACutClosesTheConnectionAfterExactlyThatManyBytes() throws {
        for cut in [1, 1000, 70_000, 100_000] {
            let (server, seen) = try serve(cutsAfterBytes: cut)
            let client = try RawClient(port: server.port)

            client.send("PUT /x HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n")
            client.send(Self.pattern(100_000))

            wait(for: [seen.ended], timeout: 10)
            XCTAssertEqual(seen.ending, .cut)
            XCTAssertEqual(Data(seen.pieces.joined()), Data(Self.pattern(cut)), "cut at \(cut)")
            XCTAssertEqual(client.readToEnd(), [], "no reply: the connection closed")
            XCTAssertEqual(server.takeRequest()?.bodyLength, cut)
        }
    }

    func testAnImmediateReplyIsSentBeforeTheBodyAndClosesTheConnection() throws {
        let server = try startedServer()
        server.bodyHandler = { _ in .reply(MockResponse(status: 409, text: "wrong offset")) }
        let client = try RawClient(port: server.port)

        client.send("PATCH /x HTTP/1.1\r\nHost: x\r\nContent-Length: 50000000\r\n\r\n")
        let reply = client.readResponse()

        XCTAssertEqual(reply?.status, 409)
        XCTAssertEqual(reply.map { String(decoding: $0.body, as: UTF8.self) }, "wrong offset")
        XCTAssertEqual(reply?.headers["connection"], "close")
        XCTAssertEqual(server.takeRequest()?.bodyLength, 0)
    }
}
