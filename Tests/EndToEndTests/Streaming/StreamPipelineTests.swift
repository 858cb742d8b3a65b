import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A stream goes through `send`'s machinery: interceptors, a token refresh on 401, monitors and the
/// logger; and the stub transport serves streams too.
final class StreamPipelineTests: XCTestCase {
    private let events = (1...3).map { ServerSentEvent(data: "word \($0)") }

    func testA401AtTheStartRefreshesOnceThenTheStreamRuns() throws {
        let server = try MockServer.started(in: self)
        let all = events
        server.handler = { request in
            request.header("Authorization") == "Bearer new"
                ? .serverSentEvents(all) : MockResponse(status: 401, text: "expired")
        }
        let refreshes = Counter()
        let authenticator = BearerTokenAuthenticator(accessToken: "old") { completion in
            refreshes.increment()
            completion(.success("new"))
        }
        let network = NetworkLayer(baseURL: server.baseURL, interceptors: [authenticator])

        let recording = record(
            network, NetworkRequest(method: .post, urlString: "chat"), as: .serverSentEvents)

        XCTAssertEqual(recording.elements, events)
        XCTAssertEqual(refreshes.value, 1)
        XCTAssertEqual(
            server.recordedRequests.map { $0.header("Authorization") }, ["Bearer old", "Bearer new"])
    }

    func testTheLoggerWritesOneLinePerStreamWithItsEventCount() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.serverSentEvents(events))
        let lines = LockedLines()
        let logged = expectation(description: "logged")
        let logger = NetworkLogger { line in
            lines.append(line)
            logged.fulfill()
        }
        let network = NetworkLayer(baseURL: server.baseURL, monitors: [logger])

        let recording = record(
            network, NetworkRequest(method: .post, urlString: "chat"), as: .serverSentEvents)
        wait(for: [logged], timeout: 5)

        XCTAssertEqual(try recording.outcome?.get().metrics?.eventCount, 3)
        XCTAssertEqual(lines.all.count, 1, "\(lines.all)")
        XCTAssertTrue(lines.all.first?.contains("3 events") == true, "\(lines.all)")
    }

    func testTheStubTransportServesAStream() {
        let transport = StubTransport()
        transport.stub(
            .get, "https://api.example.com/feed",
            with: StubResponse(
                headers: ["Content-Type": "text/event-stream"], body: Data.eventStream(events)))
        let network = transport.makeNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        let options = ServerSentEventsOptions(reconnects: false)

        let recording = record(
            network, NetworkRequest(urlString: "feed"), as: .serverSentEvents, options: options)

        XCTAssertEqual(recording.elements, events)
        XCTAssertEqual(transport.recordedRequests.map(\.url.path), ["/feed"])
    }
}

/// Lines written from the monitors' queue.
final class LockedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
