import Foundation
import NetworkTestSupport
import XCTest

/// `MockResponse.json(_:status:headers:encoder:)` labels its body `application/json` unless the caller
/// names a `Content-Type` of their own, in any case: then that one is sent, and only that one.
final class JSONContentTypeTests: XCTestCase {
    private struct Problem: Codable, Equatable {
        var title: String
        var status: Int
    }

    private let problem = Problem(title: "Out of stock", status: 409)

    func testACallersLowercaseContentTypeIsTheOnlyOneOnTheWire() throws {
        let server = try startedServer()
        server.enqueue(
            try .json(problem, status: 409, headers: ["content-type": "application/problem+json"]))
        let raw = try RawClient(port: server.port)

        raw.send("GET /order HTTP/1.1\r\nHost: x\r\n\r\n")
        let reply = try XCTUnwrap(raw.readResponse())

        XCTAssertEqual(reply.status, 409)
        XCTAssertEqual(
            reply.fieldLines.filter { $0.lowercased().hasPrefix("content-type:") },
            ["content-type: application/problem+json"])
        XCTAssertEqual(try JSONDecoder().decode(Problem.self, from: Data(reply.body)), problem)
    }

    func testACallersContentTypeInAnyCaseIsKeptAlone() throws {
        for name in ["Content-Type", "content-type", "CONTENT-TYPE", "Content-type"] {
            let response = try MockResponse.json(problem, headers: [name: "application/problem+json"])

            XCTAssertEqual(
                response.headers.filter { $0.name.lowercased() == "content-type" }.map(\.value),
                ["application/problem+json"], name)
            XCTAssertEqual(response.headers.map(\.name), [name], "the caller's spelling is kept")
        }
    }

    func testWithoutAContentTypeTheReplyIsApplicationJSON() throws {
        let server = try startedServer()
        server.enqueue(try .json(problem, headers: ["X-Request-Id": "7"]))
        let raw = try RawClient(port: server.port)

        raw.send("GET /order HTTP/1.1\r\nHost: x\r\n\r\n")
        let reply = try XCTUnwrap(raw.readResponse())

        XCTAssertEqual(
            reply.fieldLines.filter { $0.lowercased().hasPrefix("content-type:") },
            ["Content-Type: application/json"])
        XCTAssertEqual(reply.headers["x-request-id"], "7")
    }
}
