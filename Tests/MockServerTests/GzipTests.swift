import Foundation
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// gzip content coding: what goes on the wire is checked with decoders outside this process,
/// and URLSession (which always inflates gzip) gets the original bytes back.
final class GzipTests: XCTestCase {
    private static let session = TestSessions.make()

    override class func tearDown() {
        session.finishTasksAndInvalidate()
        super.tearDown()
    }

    private var session: URLSession { Self.session }
    private let tenMegabytes = 10 * 1024 * 1024

    private struct Employee: Codable, Equatable {
        var id: Int
        var name: String
    }

    func testGzippedJSONIsValidGzipAndURLSessionInflatesIt() throws {
        let server = try startedServer()
        let employees = (0..<50).map { Employee(id: $0, name: "Employee \($0)") }
        let reply = try MockResponse.json(employees, headers: ["Content-Encoding": "br"]).gzipped()
        server.enqueue(contentsOf: [reply, reply])
        let raw = try RawClient(port: server.port)

        raw.send("GET /employees HTTP/1.1\r\nHost: x\r\n\r\n")
        let wire = try XCTUnwrap(raw.readResponse())
        let fetched = fetch(server.url("/employees"), with: session)

        let json = reply.body
        XCTAssertEqual(
            wire.fieldLines.filter { $0.lowercased().hasPrefix("content-encoding:") },
            [
                "Content-Encoding: gzip"
            ])
        XCTAssertEqual(wire.headers["content-length"], String(wire.body.count))
        XCTAssertEqual(Array(wire.body.prefix(3)), [0x1F, 0x8B, 8])
        XCTAssertLessThan(wire.body.count, json.count, "repeated keys compress")
        XCTAssertEqual(try ExternalGunzip.inflate(Data(wire.body)), json)
        XCTAssertEqual(try JSONDecoder().decode([Employee].self, from: fetched.data), employees)
    }

    func testTenMegabytesOfZerosAreAboutATenthOfAPercentOnTheWire() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(body: Data(count: tenMegabytes)).gzipped())
        server.enqueue(MockResponse(content: .repeating(0, count: tenMegabytes)).gzipped())
        let raw = try RawClient(port: server.port)

        raw.send("GET /memory HTTP/1.1\r\nHost: x\r\n\r\nGET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
        let inMemory = try XCTUnwrap(raw.readResponse())
        let streamed = try XCTUnwrap(raw.readResponse())

        XCTAssertEqual(inMemory.headers["content-encoding"], "gzip")
        XCTAssertEqual(streamed.headers["transfer-encoding"], "chunked")
        for reply in [inMemory, streamed] {
            XCTAssertLessThan(reply.body.count, tenMegabytes / 900)
            let inflated = try ExternalGunzip.inflate(Data(reply.body))
            XCTAssertEqual(inflated.count, tenMegabytes)
            XCTAssertEqual(inflated, Data(count: tenMegabytes))
        }
    }

    func testURLSessionInflatesTenMegabytesOfZeros() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(body: Data(count: tenMegabytes)).gzipped())
        server.enqueue(MockResponse(content: .repeating(0, count: tenMegabytes)).gzipped().chunked(size: 100))

        let inMemory = fetch(server.url("/memory"), with: session)
        let streamed = fetch(server.url("/stream"), with: session)

        XCTAssertEqual(inMemory.data, Data(count: tenMegabytes))
        XCTAssertEqual(streamed.data, Data(count: tenMegabytes))
    }

    func testAssortedInputsInflateToThemselves() throws {
        let server = try startedServer()
        var text = ""
        for index in 0..<2_000 { text += "{\"id\":\(index),\"name\":\"Employee \(index % 37)\"}," }
        let block = noise(count: 20_000, seed: 7)
        let wide = noise(count: 40_000, seed: 9)
        var runs: [UInt8] = []
        for length in 1...600 { runs += [UInt8](repeating: UInt8(length % 3), count: length) }
        let inputs: [[UInt8]] = [
            [],
            [0x41],
            [0, 0, 0],
            Array((0...255).map { UInt8($0) }) + Array((0...255).map { UInt8($0) }),
            noise(count: 300_000),
            Array(text.utf8),
            runs,
            block + noise(count: 5, seed: 3) + block,  // distances near 20 KB: 13 extra bits
            wide + wide,  // the repeat lies beyond the 32 KiB window: literals
        ]
        var replies: [MockResponse] = []
        for input in inputs {
            replies.append(MockResponse(body: Data(input)).gzipped())
            replies.append(
                MockResponse(
                    content: .pieces(of: input, sizes: [1, 2, 700, 0, 5_000], declaringLength: false)
                )
                .gzipped())
        }
        server.enqueue(contentsOf: replies)
        let raw = try RawClient(port: server.port)

        for (index, reply) in replies.enumerated() {
            raw.send("GET /\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
            let wire = try XCTUnwrap(raw.readResponse(), "reply \(index)")
            let expected = Data(inputs[index / 2])
            XCTAssertEqual(
                try ExternalGunzip.inflate(Data(wire.body)), expected, "reply \(index), \(reply.content)")
        }
    }

    func testEndlessGzipStreamCanBeReadForAWhile() throws {
        let server = try startedServer()
        let probe = ReleaseProbe(expectation(description: "the server let go of the stream"))
        server.enqueue(MockResponse(content: probe.tracking(.repeating(0, count: nil))).gzipped())

        let outcome = try readPartially(server.url("/bomb"), limit: 32 * 1024 * 1024, expected: 0)

        wait(for: [probe.expectation], timeout: 5)
        XCTAssertGreaterThanOrEqual(outcome.received, 32 * 1024 * 1024)
        XCTAssertEqual(outcome.wrong, 0)
        XCTAssertNil(outcome.failure)
        let start = Date()
        server.stop()
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    }

    func testGzipAppliesBeforeRangesAndHEAD() throws {
        let server = try startedServer()
        let reply = MockResponse(body: Data(noise(count: 1_000))).gzipped().supportingRanges()
        server.enqueue(contentsOf: [reply, reply, reply])
        let raw = try RawClient(port: server.port)

        raw.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        let whole = try XCTUnwrap(raw.readResponse())
        raw.send("GET / HTTP/1.1\r\nHost: x\r\nRange: bytes=10-19\r\n\r\n")
        let part = try XCTUnwrap(raw.readResponse())
        raw.send("HEAD / HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try XCTUnwrap(raw.readResponse(hasBody: false))

        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(part.body, Array(whole.body[10..<20]), "the range applies to the encoded bytes")
        XCTAssertEqual(head.headers["content-length"], String(whole.body.count))
        XCTAssertEqual(head.headers["content-encoding"], "gzip")
    }
}
