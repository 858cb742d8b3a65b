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
