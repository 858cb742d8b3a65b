import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A typed event stream decodes only the event types it names and passes the others by.
final class EventTypeTests: XCTestCase {
    private struct Comment: Codable, Equatable, Sendable {
        var text: String
    }

    /// A `presence` event between comments, whose data isn't a comment, used to end the stream with
    /// `decodingFailed`.
    private let body = [
        ServerSentEvent(event: "comment", data: #"{"text":"first"}"#, id: "1"),
        ServerSentEvent(event: "presence", data: #"{"user":"ana","online":true}"#, id: "2"),
        ServerSentEvent(data: #"{"unnamed":"a message event"}"#, id: "3"),
        ServerSentEvent(event: "comment", data: #"{"text":"second"}"#, id: "4"),
    ]
    private let format = StreamFormat.serverSentEvents(decoding: Comment.self, eventTypes: ["comment"])

    func testOnlyTheNamedTypesAreDecodedAndTheStreamEndsWell() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.serverSentEvents(body))
        let network = NetworkLayer(baseURL: server.baseURL)

        let recording = record(
            network, NetworkRequest(method: .post, urlString: "comments"), as: format)

        XCTAssertEqual(recording.elements, [Comment(text: "first"), Comment(text: "second")])
        let summary = try XCTUnwrap(recording.outcome).get()
        XCTAssertEqual(summary.eventCount, 2)
        // A skipped event's ID still counts.
        XCTAssertEqual(summary.lastEventID, "4")
    }

    func testTheAsyncFormSkipsTheOtherTypesToo() async throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.serverSentEvents(body))
        let network = NetworkLayer(baseURL: server.baseURL)

        var comments: [Comment] = []
        for try await comment in network.stream(
            NetworkRequest(method: .post, urlString: "comments"), as: format)
        {
            comments.append(comment)
        }

        XCTAssertEqual(comments, [Comment(text: "first"), Comment(text: "second")])
    }

    /// `"message"` names the events without an `event:` field, as the standard has it.
    func testMessageNamesTheEventsWithoutAType() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(
            .serverSentEvents([
                ServerSentEvent(data: #"{"text":"plain"}"#),
                ServerSentEvent(event: "presence", data: "ana"),
            ]))
        let network = NetworkLayer(baseURL: server.baseURL)

        let recording = record(
            network, NetworkRequest(method: .post, urlString: "comments"),
            as: .serverSentEvents(decoding: Comment.self, eventTypes: ["message"]))

        XCTAssertEqual(recording.elements, [Comment(text: "plain")])
        XCTAssertNoThrow(try recording.outcome?.get())
    }

    /// A connection whose events were all passed by still moved the stream on: its next failures are
    /// counted afresh, as after an element, so a token that expired again is refreshed again.
    func testSkippedEventsCountAsProgressForTheAttemptsOfAReconnection() throws {
        let server = try MockServer.started(in: self)
        let served = Counter()
        server.handler = { request in
            switch (served.incremented(), request.header("Authorization")) {
            case (1, _): return MockResponse(status: 401, text: "expired")
            case (2, "Bearer t1"): return .serverSentEvents([ServerSentEvent(event: "presence", data: "ana")])
            case (3, _): return MockResponse(status: 401, text: "expired again")
            case (4, "Bearer t2"): return .serverSentEvents([ServerSentEvent(event: "presence", data: "bo")])
            default: return MockResponse(status: 204)
            }
        }
        let refreshes = Counter()
        let authenticator = BearerTokenAuthenticator(accessToken: "t0") { completion in
            completion(.success("t\(refreshes.incremented())"))
        }
        let network = NetworkLayer(baseURL: server.baseURL, interceptors: [authenticator])
        let options = ServerSentEventsOptions(
            reconnects: true, reconnectionDelay: 0, minimumReconnectionDelay: 0.01)

        let recording = record(
            network, NetworkRequest(urlString: "comments"), as: format, options: options)

        XCTAssertEqual(recording.elements, [])
        XCTAssertEqual(refreshes.value, 2)
        XCTAssertNoThrow(try recording.outcome?.get())
    }

    /// A named event that doesn't decode still fails the stream, numbered among every event.
    func testANamedEventThatDoesNotDecodeIsNamedAmongAllEvents() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(
            .serverSentEvents([
                ServerSentEvent(event: "presence", data: "ana"),
                ServerSentEvent(event: "comment", data: #"{"txt":"typo"}"#),
            ]))
        let network = NetworkLayer(baseURL: server.baseURL)

        let recording = record(network, NetworkRequest(method: .post, urlString: "comments"), as: format)

        XCTAssertEqual(recording.elements, [])
        guard case .failure(.decodingFailed(let error as StreamDecodingError, _)) = recording.outcome else {
            return XCTFail("\(String(describing: recording.outcome))")
        }
        XCTAssertEqual(error.event, 2)
    }
}
