import Foundation
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Header lines exactly as they cross the wire, both ways: repeated reply fields, and the raw
/// request head a header-injection test inspects.
final class HeaderWireTests: XCTestCase {
    private static let session = TestSessions.make()

    override class func tearDown() {
        session.finishTasksAndInvalidate()
        super.tearDown()
    }

    func testTwoWWWAuthenticateFieldsGoOutAsTwoLines() throws {
        let server = try startedServer()
        server.enqueue(
            MockResponse(status: 401)
                .addingHeader("WWW-Authenticate", "Basic realm=\"api\"")
                .addingHeader("WWW-Authenticate", "Bearer realm=\"api\", error=\"invalid_token\""))
        let raw = try RawClient(port: server.port)

        raw.send("GET /private HTTP/1.1\r\nHost: x\r\n\r\n")
        let reply = try XCTUnwrap(raw.readResponse())

        XCTAssertEqual(reply.status, 401)
        XCTAssertEqual(
            reply.fieldLines.filter { $0.hasPrefix("WWW-Authenticate:") },
            [
                "WWW-Authenticate: Basic realm=\"api\"",
                "WWW-Authenticate: Bearer realm=\"api\", error=\"invalid_token\"",
            ])
    }

    func testRawHeadIsExactlyWhatTheClientSent() throws {
        let server = try startedServer()
        let raw = try RawClient(port: server.port)
        let head = "GET /a?b=1 HTTP/1.1\r\nHost: x\r\nX-Spaced:   v  \r\nx-lower: 2\r\n\r\n"

        raw.send("\r\n" + head)
        _ = raw.readResponse()

        let request = try XCTUnwrap(server.takeRequest(timeout: 1))
        XCTAssertEqual(String(decoding: request.rawHead, as: UTF8.self), head)
        XCTAssertEqual(request.header("X-Spaced"), "v")
    }

    func testALineInjectedWithABareLineFeedIsVisible() throws {
        let server = try startedServer()
        let raw = try RawClient(port: server.port)

        raw.send("GET / HTTP/1.1\r\nHost: x\r\nX-Name: a\nInjected: yes\r\n\r\n")
        _ = raw.readResponse()

        let request = try XCTUnwrap(server.takeRequest(timeout: 1))
        XCTAssertEqual(request.headers.map(\.name), ["Host", "X-Name", "Injected"])
        XCTAssertTrue(
            String(decoding: request.rawHead, as: UTF8.self).contains("X-Name: a\nInjected: yes\r\n"))
        XCTAssertEqual(server.requestCount, 1)
    }

    func testURLSessionRequestHeadLinesMatchTheRecordedFields() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(text: "ok"))

        let reply = fetch(server.url("/h"), with: Self.session, headers: ["X-Token": "abc"])

        XCTAssertEqual(reply.text, "ok")
        let request = try XCTUnwrap(server.takeRequest(timeout: 1))
        let lines = String(decoding: request.rawHead, as: UTF8.self).components(separatedBy: "\r\n")
        XCTAssertEqual(lines.first, "GET /h HTTP/1.1")
        XCTAssertEqual(lines.suffix(2), ["", ""], "the head ends with an empty line")
        XCTAssertEqual(lines.dropFirst().dropLast(2).count, request.headers.count)
        XCTAssertTrue(lines.contains("X-Token: abc"))
        XCTAssertEqual(server.requestCount, 1)
    }
}
