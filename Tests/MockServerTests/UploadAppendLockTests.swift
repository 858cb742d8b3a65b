import Foundation
import NetworkTestSupport
import XCTest

/// The resumable-upload handlers take one append at a time per upload, as tus servers lock an upload for
/// the length of a `PATCH`: an append that arrives while another is still being received (a cancelled one
/// whose body the server is still reading, say) is refused with 409 before its body, and the first one's
/// bytes are stored once, the offset counted once.
final class UploadAppendLockTests: XCTestCase {
    private static let length = 100

    func testAnAppendWhileAnotherIsReceivedIsRefusedAndTheFirstIsStoredOnce() throws {
        let server = try startedServer()
        let tus = server.serveTus()
        addTeardownBlock { tus.removeStoredFiles() }
        let receiving = expectation(description: "the first append's body is being received")
        receiving.assertForOverFulfill = false
        let appending = tus.bodyHandler
        server.bodyHandler = { request in
            guard var receiver = appending(request) else { return nil }
            let receive = receiver.receive
            receiver.receive = { piece in
                receive(piece)
                receiving.fulfill()
            }
            return receiver
        }
        let body = (0..<Self.length).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let path = try create(on: server)
        let first = try RawClient(port: server.port)
        let second = try RawClient(port: server.port)

        first.send(Self.appendHead(path, offset: 0))
        first.send(Array(body[0..<10]))
        wait(for: [receiving], timeout: 5)
        second.send(Self.appendHead(path, offset: 0))
        second.send(body)
        let refused = second.readResponse()
        first.send(Array(body[10...]))
        let stored = first.readResponse(hasBody: false)

        XCTAssertEqual(refused?.status, 409, "the second append, while the first is received")
        XCTAssertEqual(stored?.status, 204)
        XCTAssertEqual(stored?.headers["upload-offset"], String(Self.length), "the offset counted once")
        XCTAssertEqual(try Data(contentsOf: try XCTUnwrap(tus.storedFiles.first)), Data(body))
        XCTAssertEqual(tus.appends.map(\.offset), [0, 0])
        XCTAssertEqual(tus.appends.map(\.length), [0, Self.length], "the refused one stored nothing")
    }

    /// Creates an upload of ``length`` bytes; returns its path.
    private func create(on server: MockServer) throws -> String {
        let client = try RawClient(port: server.port)
        client.send(
            "POST /files HTTP/1.1\r\nHost: x\r\nTus-Resumable: 1.0.0\r\nUpload-Length: \(Self.length)\r\n"
                + "Content-Length: 0\r\n\r\n")
        let created = try XCTUnwrap(client.readResponse())
        XCTAssertEqual(created.status, 201)
        return try XCTUnwrap(created.headers["location"])
    }

    private static func appendHead(_ path: String, offset: Int) -> String {
        "PATCH \(path) HTTP/1.1\r\nHost: x\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: \(offset)\r\n"
            + "Content-Type: application/offset+octet-stream\r\nContent-Length: \(length)\r\n\r\n"
    }
}
