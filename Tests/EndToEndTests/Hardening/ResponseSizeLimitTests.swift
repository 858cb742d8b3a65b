import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// A reply larger than the layer's limit is stopped as soon as it is known to be too large, and fails
/// with `URLError(.dataLengthExceedsMaximum)`; nothing past the limit is kept.
final class ResponseSizeLimitTests: XCTestCase {
    private let megabyte = 1_048_576

    private func fetch(
        _ reply: MockResponse, limit: Int, method: HTTPMethod = .get, endpointLimit: Int? = nil,
        timeout: TimeInterval = 10
    ) throws -> Result<EmptyResponse, NetworkError>? {
        let server = try MockServer.started(in: self)
        server.enqueue(reply)
        let network = NetworkLayer(baseURL: server.baseURL, maximumResponseSize: limit)
        return outcome(of: EmptyResponse.self, timeout: timeout) { recorder in
            network.request(
                Fetch(method: method, maximumResponseSize: endpointLimit), successHandler: recorder.success,
                errorHandler: recorder.failure)
        }
    }

    private struct Fetch: Endpoint {
        var path: String { "big" }
        var method: HTTPMethod
        var maximumResponseSize: Int?
    }

    private func assertTooLarge(
        _ result: Result<EmptyResponse, NetworkError>?, file: StaticString = #filePath, line: UInt = #line
    ) {
        let error = result?.error
        XCTAssertEqual(
            error?.transportCode, .dataLengthExceedsMaximum, "\(String(describing: result))", file: file,
            line: line)
        XCTAssertTrue(
            error?.message.contains("too large") == true, error?.message ?? "", file: file, line: line)
    }

    func testAnEndlessBodyAt100MBPerSecondFailsAtTheLimit() throws {
        let reply = MockResponse(content: .repeating(0x61, count: nil)).throttled(
            bytes: megabyte, every: 0.01)
        assertTooLarge(try fetch(reply, limit: megabyte))
    }

    /// At full loopback speed FoundationNetworking reads on after the cancel, and its queued callbacks
    /// must drain before the task completes: slower on a loaded machine, so the wait is generous.
    func testAnEndlessChunkedBodyAtFullSpeedFailsAtTheLimit() throws {
        assertTooLarge(
            try fetch(MockResponse(content: .repeating(0x61, count: nil)), limit: megabyte, timeout: 45))
    }

    func testAnEndlessBodyWithAHugeContentLengthFailsBeforeItsBodyIsRead() throws {
        // The body would only start after 20 s: the failure must come from the Content-Length alone.
        let reply = MockResponse(content: .repeating(0x61, count: 1 << 40)).delayed(beforeBody: 20)
        let started = Date()
        assertTooLarge(try fetch(reply, limit: megabyte))
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
    }

    func testAGzipBombAt100MBPerSecondFailsAtTheLimitOfItsInflatedSize() throws {
        // About 1 MB on the wire, 1 GiB once inflated, at about 100 MB/s once inflated.
        let bomb = MockResponse(content: .repeating(0, count: 1 << 30)).gzipped()
        assertTooLarge(try fetch(bomb.throttled(bytes: 1_000, every: 0.01), limit: megabyte))
    }

    func testAGzipBombAtFullSpeedFailsAtTheLimitOfItsInflatedSize() throws {
        let bomb = MockResponse(content: .repeating(0, count: 1 << 30)).gzipped()
        assertTooLarge(try fetch(bomb, limit: megabyte, timeout: 45))
    }

    func testAnEndlessGzipStreamAtFullSpeedFailsAtTheLimit() throws {
        let endless = MockResponse(content: .repeating(0, count: nil)).gzipped()
        assertTooLarge(try fetch(endless, limit: megabyte, timeout: 45))
    }

    func testAReplyOfExactlyTheLimitSucceeds() throws {
        let result = try fetch(MockResponse(body: Data(repeating: 0x20, count: 1_000)), limit: 1_000)
        XCTAssertEqual(result?.value, EmptyResponse(), "\(String(describing: result))")
        let chunked = try fetch(
            MockResponse(body: Data(repeating: 0x20, count: 1_000)).chunked(size: 100), limit: 1_000)
        XCTAssertEqual(chunked?.value, EmptyResponse(), "\(String(describing: chunked))")
    }

    func testOneByteOverTheLimitFails() throws {
        assertTooLarge(
            try fetch(
                MockResponse(body: Data(repeating: 0x20, count: 1_001)).chunked(size: 100), limit: 1_000))
        assertTooLarge(try fetch(MockResponse(body: Data(repeating: 0x20, count: 1_001)), limit: 1_000))
    }

    func testAnEndpointOverridesTheLayersLimit() throws {
        let body = Data(repeating: 0x20, count: 5_000)
        assertTooLarge(try fetch(MockResponse(body: body), limit: megabyte, endpointLimit: 1_000))
        let allowed = try fetch(MockResponse(body: body), limit: 1_000, endpointLimit: 10_000)
        XCTAssertEqual(allowed?.value, EmptyResponse(), "\(String(describing: allowed))")
    }

    func testAHeadReplyAnnouncingALargeBodySucceeds() throws {
        let result = try fetch(
            MockResponse(body: Data(repeating: 0x20, count: 5_000)), limit: 1_000, method: .head)
        XCTAssertEqual(result?.value, EmptyResponse(), "\(String(describing: result))")
    }

    func testTheDefaultLimitIs50MiB() {
        XCTAssertEqual(NetworkLayer().maximumResponseSize, 50 * 1_048_576)
    }
}
