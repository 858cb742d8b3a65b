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

    /// Sent again, a stream that already handed over elements would hand them over twice.
    func testTheRetryPolicyNeverRepeatsAStreamThatDeliveredElements() throws {
        let server = try MockServer.started(in: self)
        let tokens = (1...3).map { Token(index: $0, text: "t\($0)") }
        server.enqueue(try .jsonLines(tokens, ending: .disconnectMidEvent))
        server.enqueue(try .jsonLines(tokens))
        let network = NetworkLayer(
            baseURL: server.baseURL, retryPolicy: RetryPolicy(initialDelay: 0.01))

        let recording = record(network, NetworkRequest(urlString: "log"), as: .jsonLines(Token.self))

        XCTAssertEqual(recording.elements, Array(tokens.prefix(2)))
        guard case .failure(.transport(let error)) = recording.outcome else {
            return XCTFail("\(String(describing: recording.outcome))")
        }
        XCTAssertEqual(error.code, .networkConnectionLost)
        XCTAssertEqual(server.recordedRequests.count, 1)
    }

    func testTheRetryPolicyRetriesAStreamThatFailedBeforeItsFirstElement() throws {
        let server = try MockServer.started(in: self)
        let tokens = (1...3).map { Token(index: $0, text: "t\($0)") }
        server.enqueue(MockResponse(status: 503, text: "warming up"))
        server.enqueue(try .jsonLines(tokens))
        let network = NetworkLayer(
            baseURL: server.baseURL, retryPolicy: RetryPolicy(initialDelay: 0.01))

        let recording = record(network, NetworkRequest(urlString: "log"), as: .jsonLines(Token.self))

        XCTAssertEqual(recording.elements, tokens)
        XCTAssertEqual(try recording.outcome?.get().eventCount, 3)
        XCTAssertEqual(server.recordedRequests.count, 2)
    }

    /// Reconnections are bounded by the stream's own maximum, not by the retry policy's on top of it.
    func testAStreamOutOfReconnectsIsNotRetriedByThePolicy() throws {
        let server = try MockServer.started(in: self)
        server.handler = { _ in MockResponse(status: 200, headers: ["Content-Type": "text/event-stream"]) }
        let network = NetworkLayer(
            baseURL: server.baseURL, retryPolicy: RetryPolicy(maximumAttempts: 5, initialDelay: 0.01))
        let options = ServerSentEventsOptions(
            reconnects: true, maximumReconnects: 1, reconnectionDelay: 0, minimumReconnectionDelay: 0.01)

        let recording = record(
            network, NetworkRequest(urlString: "feed"), as: .serverSentEvents, options: options)

        guard case .failure = recording.outcome else {
            return XCTFail("\(String(describing: recording.outcome))")
        }
        XCTAssertEqual(server.recordedRequests.count, 2)
    }

    /// A stream that ran a while counts its attempts afresh when it reconnects: a token that expired
    /// meanwhile is refreshed again, although the first connection already had its 401.
    func testAReconnectionAfterEventsRefreshesAnExpiredTokenAgain() throws {
        let server = try MockServer.started(in: self)
        let served = Counter()
        server.handler = { request in
            served.increment()
            switch (served.value, request.header("Authorization")) {
            case (1, _): return MockResponse(status: 401, text: "expired")
            case (2, "Bearer t1"): return .serverSentEvents([ServerSentEvent(data: "one", id: "1")])
            case (3, _): return MockResponse(status: 401, text: "expired again")
            case (4, "Bearer t2"): return .serverSentEvents([ServerSentEvent(data: "two", id: "2")])
            default: return MockResponse(status: 204)
            }
        }
        let refreshes = Counter()
        let authenticator = BearerTokenAuthenticator(accessToken: "t0") { completion in
            refreshes.increment()
            completion(.success("t\(refreshes.value)"))
        }
        let network = NetworkLayer(baseURL: server.baseURL, interceptors: [authenticator])
        let options = ServerSentEventsOptions(
            reconnects: true, reconnectionDelay: 0, minimumReconnectionDelay: 0.01)

        let recording = record(
            network, NetworkRequest(urlString: "feed"), as: .serverSentEvents, options: options)

        XCTAssertEqual(recording.elements.map(\.data), ["one", "two"])
        XCTAssertEqual(refreshes.value, 2)
        XCTAssertNoThrow(try recording.outcome?.get())
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
