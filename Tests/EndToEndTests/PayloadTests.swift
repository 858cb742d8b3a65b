import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Request bodies from 0 B to 20 MB arrive byte-exact (compared by checksum on the server's side), and
/// large and chunked replies decode intact. Each test owns an ephemeral session.
final class PayloadTests: XCTestCase {
    private struct Upload: Endpoint {
        var data: Data
        var path: String { "uploads/blob" }
        var method: HTTPMethod { .put }
        var body: RequestBody { .data(data, contentType: "application/octet-stream") }
    }

    private struct Document: Codable, Equatable {
        var title: String
        var text: String
    }

    private struct Row: Codable, Equatable {
        var id: Int
        var name: String
        var score: Double
        var tags: [String]
    }

    private static let megabyte = 1_048_576

    func testRequestBodiesFromEmptyToTwentyMegabytesArriveByteExact() throws {
        let server = try MockServer.echoing(maxRequestBodySize: 24 * Self.megabyte, in: self)
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)

        for size in [0, 1, 1_000, 65_537, Self.megabyte + 3, 20 * Self.megabyte] {
            let data = TestData.bytes(size, seed: UInt64(size) + 1)
            let result = outcome(of: Echo.self, timeout: 30) { recorder in
                network.request(
                    Upload(data: data), successHandler: recorder.success, errorHandler: recorder.failure)
            }

            let echo = try XCTUnwrap(result?.value, "\(size) bytes: \(String(describing: result))")
            XCTAssertEqual(echo.method, "PUT")
            XCTAssertEqual(echo.bodyChecksum, Checksum.of(data), "\(size) bytes")
            XCTAssertEqual(echo.headers["content-type"], "application/octet-stream")
            XCTAssertEqual(echo.headers["content-length"], String(size))
        }
        XCTAssertEqual(server.requestCount, 6)
    }

    func testJSONBodiesArriveByteExact() throws {
        let server = try MockServer.echoing(in: self)
        let encoder = TestData.encoder()
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, encoder: TestData.encoder())
        let line = "Grüße \"quoted\" \\ back/slash \u{1F600} tab\t and the rest of a line\n"

        for repeats in [0, 1, 2_000, 40_000] {
            let document = Document(title: "\(repeats) lines", text: String(repeating: line, count: repeats))
            let expected = try encoder.encode(document)
            let result = outcome(of: Echo.self, timeout: 30) { recorder in
                network.post(
                    urlString: "documents", body: document, successHandler: recorder.success,
                    errorHandler: recorder.failure)
            }

            let echo = try XCTUnwrap(result?.value, "\(expected.count) bytes: \(String(describing: result))")
            XCTAssertEqual(echo.bodyChecksum, Checksum.of(expected), "\(expected.count) bytes")
            XCTAssertEqual(echo.headers["content-type"], "application/json")
        }
        let last = try XCTUnwrap(server.recordedRequests.last)
        XCTAssertGreaterThan(last.body.count, 2 * Self.megabyte)
        XCTAssertEqual(try last.decodedBody(as: Document.self).text.count, line.count * 40_000)
    }

    func testFiveMegabyteReplyDecodesIntact() throws {
        let rows = (0..<60_000).map { index in
            Row(
                id: index, name: "row \(index): \"ü\" \u{1F600}", score: Double(index) / 7,
                tags: ["t\(index % 13)", "common"])
        }
        let reply = try MockResponse.json(rows)
        XCTAssertGreaterThan(reply.body.count, 5 * Self.megabyte)
        let server = try MockServer.started(in: self)
        server.enqueue(reply)
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)

        let result = outcome(of: [Row].self, timeout: 30) { recorder in
            network.get(urlString: "rows", successHandler: recorder.success, errorHandler: recorder.failure)
        }

        let decoded = try XCTUnwrap(result?.value, String(describing: result))
        XCTAssertEqual(decoded.count, rows.count)
        XCTAssertTrue(decoded == rows, "every row decoded intact")
    }

    func testChunkedRepliesDecodeIntact() throws {
        let small = (0..<40).map { Row(id: $0, name: "n\($0)", score: 0.5, tags: []) }
        let large = (0..<12_000).map { Row(id: $0, name: "name \($0) é", score: 1.25, tags: ["x"]) }
        let server = try MockServer.started(in: self)
        server.enqueue(contentsOf: [
            try MockResponse.json(small).chunked(size: 1),
            try MockResponse.json(large).chunked(size: 4_096),
            try MockResponse.json(large).chunked(size: 1_000).throttled(bytes: 50_000, every: 0.01),
            MockResponse(status: 200, headers: ["Content-Type": "application/json"]).chunked(size: 16),
            MockResponse(status: 200, headers: ["Content-Type": "application/json"]).chunked(size: 16),
        ])
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)

        let smallResult = outcome(of: [Row].self) { recorder in
            network.get(urlString: "small", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let largeResult = outcome(of: [Row].self) { recorder in
            network.get(urlString: "large", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let throttledResult = outcome(of: [Row].self) { recorder in
            network.get(urlString: "slow", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let emptyDecoded = outcome(of: [Row].self) { recorder in
            network.get(urlString: "empty", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        let emptyPlain = outcome(of: Void.self) { recorder in
            network.delete(urlString: "empty", successHandler: recorder.done, errorHandler: recorder.failure)
        }

        XCTAssertEqual(smallResult?.value, small, String(describing: smallResult))
        XCTAssertTrue(largeResult?.value == large, String(describing: largeResult))
        XCTAssertTrue(throttledResult?.value == large, String(describing: throttledResult))
        XCTAssertEqual(emptyDecoded?.error?.isEmptyResponse, true, String(describing: emptyDecoded))
        XCTAssertNotNil(emptyPlain?.value, String(describing: emptyPlain))
        XCTAssertEqual(server.queuedResponseCount, 0)
    }
}
