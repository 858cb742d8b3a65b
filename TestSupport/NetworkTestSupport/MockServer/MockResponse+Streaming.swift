import Foundation
import NetworkLayer

extension MockResponse {
    /// How a scripted stream ends once its last piece is written.
    public enum StreamEnding: Sendable, Equatable {
        /// The reply ends properly (the last chunk of a chunked body).
        case close
        /// The connection closes halfway through the last piece, like a server dying mid-event.
        case disconnectMidEvent
        /// Nothing more is written and the connection stays open, until the client closes it or the
        /// server stops: a stream that has gone silent.
        case stall
    }

    /// A `text/event-stream` reply of `events`, `interval` seconds apart (the first after `interval`
    /// too), ending as `ending` says.
    ///
    /// - Parameters:
    ///   - events: The events, written in their wire format.
    ///   - interval: Seconds before each event.
    ///   - ending: How the reply ends after the last event.
    ///   - status: The status code.
    /// - Returns: A streamed reply.
    public static func serverSentEvents(
        _ events: [ServerSentEvent], interval: TimeInterval = 0, ending: StreamEnding = .close,
        status: Int = 200
    ) -> MockResponse {
        streamed(
            events.map { Data($0.wireFormat.utf8) }, contentType: "text/event-stream", interval: interval,
            ending: ending, status: status)
    }

    /// A `text/event-stream` reply of the `events` after the one whose ID the request sends as
    /// `Last-Event-ID` (all of them without one): what a server that resumes a stream answers.
    ///
    /// - Parameters:
    ///   - events: Every event of the stream, in order.
    ///   - request: The request being answered.
    ///   - interval: Seconds before each event.
    ///   - ending: How the reply ends after the last event.
    /// - Returns: A streamed reply.
    public static func serverSentEvents(
        _ events: [ServerSentEvent], resuming request: MockServerRequest, interval: TimeInterval = 0,
        ending: StreamEnding = .close
    ) -> MockResponse {
        let lastID = request.headers.last { $0.name.lowercased() == "last-event-id" }?.value
        var rest = events[...]
        if let lastID, let index = events.firstIndex(where: { $0.id == lastID }) {
            rest = events[(index + 1)...]
        }
        return serverSentEvents(Array(rest), interval: interval, ending: ending)
    }

    /// An `application/jsonl` reply: each of `values` encoded as JSON on a line of its own, `interval`
    /// seconds apart.
    ///
    /// - Parameters:
    ///   - values: The values, one per line.
    ///   - interval: Seconds before each line.
    ///   - ending: How the reply ends after the last line.
    ///   - encoder: Encodes each value.
    /// - Returns: A streamed reply.
    public static func jsonLines<Value: Encodable>(
        _ values: [Value], interval: TimeInterval = 0, ending: StreamEnding = .close,
        encoder: JSONEncoder = JSONEncoder()
    ) throws -> MockResponse {
        let lines = try values.map { try encoder.encode($0) + Data("\n".utf8) }
        return streamed(
            lines, contentType: "application/jsonl", interval: interval, ending: ending, status: 200)
    }

    /// A reply whose body is `pieces`, each written `interval` seconds after the one before.
    ///
    /// - Parameters:
    ///   - pieces: The body, piece by piece.
    ///   - contentType: The reply's `Content-Type`.
    ///   - interval: Seconds before each piece.
    ///   - ending: How the reply ends after the last piece.
    ///   - status: The status code.
    /// - Returns: A streamed reply: chunked, or with a `Content-Length` the body never reaches for
    ///   ``StreamEnding/disconnectMidEvent``.
    public static func streamed(
        _ pieces: [Data], contentType: String, interval: TimeInterval = 0, ending: StreamEnding = .close,
        status: Int = 200
    ) -> MockResponse {
        var pieces = pieces
        var length: Int?
        if ending == .disconnectMidEvent, let last = pieces.popLast() {
            pieces.append(last.prefix(last.count / 2))
            // Longer than what is written: the server closes when the pieces run out.
            length = pieces.reduce(0) { $0 + $1.count } + last.count
        }
        let script = pieces
        return MockResponse(
            status: status, headers: ["Content-Type": contentType, "Cache-Control": "no-store"],
            content: .stream(length: length) {
                var next = 0
                return {
                    guard next < script.count else {
                        guard ending == .stall else { return nil }
                        Thread.sleep(forTimeInterval: 0.01)
                        return Data()
                    }
                    if interval > 0 { Thread.sleep(forTimeInterval: interval) }
                    defer { next += 1 }
                    return script[next]
                }
            })
    }
}
