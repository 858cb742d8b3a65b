import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// What each level of `NetworkLogger` writes.
final class LoggerLevelTests: XCTestCase {
    /// Runs a success (`ok`), a 404 (`missing`) and a request retried once (`flaky`) through a logger at
    /// `level`; returns its lines.
    private func lines(
        at level: NetworkLogger.Level, bodyLimit: Int = 4_096,
        server configure: (MockServer) throws -> Void = { _ in },
        requests: (NetworkLayer, OutcomeRecorder<Data>, String) -> NetworkTask = { network, recorder, path in
            network.get(urlString: path, successHandler: recorder.success, errorHandler: recorder.failure)
        },
        paths: [String]
    ) throws -> [String] {
        let server = try MockServer.started(in: self)
        try configure(server)
        let lines = LineCollector()
        let watcher = EventRecorder()
        let finished = watcher.expectFinishes(paths.count, self)
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral,
            retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.01),
            // The watcher runs after the logger on the same queue: once it has seen a finish, the
            // logger has written that finish's lines.
            monitors: [NetworkLogger(level: level, bodyLimit: bodyLimit, sink: lines.sink), watcher])
        for path in paths {
            outcome(of: Data.self) { recorder in requests(network, recorder, path) }
        }
        wait(for: [finished], timeout: 10)
        return lines.lines
    }

    private func threeRequests(_ server: MockServer) throws {
        server.enqueue(contentsOf: [
            MockResponse(status: 200, text: "fine"), MockResponse(status: 404, text: "no such thing"),
            MockResponse(status: 503), MockResponse(status: 200, text: "second time lucky"),
        ])
    }

    func testErrorsWritesOnlyFailures() throws {
        let lines = try lines(at: .errors, server: threeRequests, paths: ["ok", "missing", "flaky"])
        XCTAssertEqual(lines.count, 1, "\(lines)")
        let line = try XCTUnwrap(lines.first)
        XCTAssertTrue(line.hasPrefix("✗ #"), line)
        XCTAssertTrue(line.contains("GET http://127.0.0.1:"), line)
        XCTAssertTrue(line.contains("/missing"), line)
        XCTAssertTrue(line.contains("404"), line)
    }

    /// Also a regression: a retry wrote a line of its own, so a retried request took several.
    func testRequestsWritesOneLinePerRequest() throws {
        let lines = try lines(at: .requests, server: threeRequests, paths: ["ok", "missing", "flaky"])
        XCTAssertEqual(lines.count, 3, "\(lines)")
        XCTAssertTrue(lines[0].hasPrefix("✓ #"), lines[0])
        XCTAssertTrue(lines[0].contains("/ok → 200, 4 bytes, "), lines[0])
        XCTAssertTrue(lines[0].hasSuffix(" ms"), lines[0])
        XCTAssertTrue(lines[1].hasPrefix("✗ #"), lines[1])
        XCTAssertTrue(lines[1].contains("/missing → unacceptableStatusCode(404"), lines[1])
        XCTAssertTrue(lines[2].hasPrefix("✓ #"), lines[2])
        XCTAssertTrue(lines[2].contains("/flaky → 200, 17 bytes, "), lines[2])
        XCTAssertTrue(lines[2].hasSuffix(", 2 attempts"), lines[2])
        XCTAssertFalse(lines.joined().contains("curl"), "no curl command below .full")
    }

    /// Alone, a logger below `.full` is sent only the finish of each request; its line is the same.
    func testALoggerAloneStillCountsAttemptsAndBytes() throws {
        let server = try MockServer.started(in: self)
        try threeRequests(server)
        let lines = LineCollector()
        let written = expectation(description: "three lines")
        written.expectedFulfillmentCount = 3
        let sink = lines.sink
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral,
            retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.01),
            monitors: [
                NetworkLogger(
                    level: .requests,
                    sink: { line in
                        sink(line)
                        written.fulfill()
                    })
            ])
        for path in ["ok", "missing", "flaky"] {
            outcome(of: Data.self) { recorder in
                network.get(urlString: path, successHandler: recorder.success, errorHandler: recorder.failure)
            }
        }
        wait(for: [written], timeout: 10)

        XCTAssertEqual(lines.lines.count, 3, "\(lines.lines)")
        XCTAssertTrue(lines.lines[0].contains("/ok → 200, 4 bytes, "), lines.text)
        XCTAssertTrue(lines.lines[1].contains("/missing → unacceptableStatusCode(404"), lines.text)
        XCTAssertTrue(lines.lines[2].contains("/flaky → 200, 17 bytes, "), lines.text)
        XCTAssertTrue(lines.lines[2].hasSuffix(", 2 attempts"), lines.text)
    }

    func testFullWritesHeadersBodiesUpToTheLimitRetriesAndACurlCommand() throws {
        let long = String(repeating: "0123456789", count: 10)
        let lines = try lines(
            at: .full, bodyLimit: 10,
            server: { server in
                server.enqueue(contentsOf: [
                    MockResponse(status: 200, headers: ["X-Echo": "yes"], text: long),
                    MockResponse(status: 503, text: "busy"), MockResponse(status: 500, text: "broken"),
                ])
            },
            requests: { network, recorder, path in
                network.send(
                    NetworkRequest(
                        method: .put, urlString: path, headers: ["X-Mine": "mine"],
                        body: .data(Data("payload-body-text".utf8), contentType: "text/plain")),
                    successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
            },
            paths: ["long", "broken"])
        let text = lines.joined(separator: "\n")

        XCTAssertTrue(text.contains("→ #"), text)
        XCTAssertTrue(text.contains("PUT http://127.0.0.1:"), text)
        XCTAssertTrue(text.contains("X-Mine: mine"), text)
        XCTAssertTrue(text.contains("Content-Type: text/plain"), text)
        XCTAssertTrue(text.contains("  payload-bo … (17 bytes in all)"), text)
        XCTAssertTrue(text.contains("← #"), text)
        XCTAssertTrue(text.contains("X-Echo: yes"), text)
        XCTAssertTrue(text.contains("  0123456789 … (100 bytes in all)"), text)
        XCTAssertFalse(text.contains("01234567890"), "no more than the limit:\n\(text)")
        XCTAssertTrue(text.contains("  busy\n"), "a short body in full:\n\(text)")
        XCTAssertTrue(text.contains("↻ #"), "retries are written:\n\(text)")
        XCTAssertTrue(text.contains("✓ #"), text)
        XCTAssertTrue(text.contains("✗ #"), text)
        XCTAssertTrue(text.contains("unacceptableStatusCode(500"), text)
        let curl = try XCTUnwrap(lines.last, text)
        XCTAssertTrue(curl.hasPrefix("  curl -X 'PUT' 'http://127.0.0.1:"), curl)
        XCTAssertTrue(curl.contains("/broken'"), curl)
        XCTAssertTrue(curl.contains("'payload-body-text'"), "the command carries the whole body:\n\(curl)")
    }

    func testBinaryBodiesShowAsAByteCount() throws {
        let lines = try lines(
            at: .full,
            server: { $0.enqueue(MockResponse(body: Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10]))) },
            paths: ["image"])
        let text = lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("  <6 bytes of binary data>"), text)
    }

    /// Regression: a text body cut at the limit in the middle of a character was shown as binary data.
    func testATextBodyCutInsideACharacterStaysText() throws {
        let lines = try lines(
            at: .full, bodyLimit: 5, server: { $0.enqueue(MockResponse(text: "ééééé")) }, paths: ["accents"])
        let text = lines.joined(separator: "\n")
        XCTAssertTrue(text.contains("  éé … (10 bytes in all)"), text)
        XCTAssertFalse(text.contains("binary"), text)
    }
}
