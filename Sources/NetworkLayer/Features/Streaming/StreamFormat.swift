import Foundation

/// How a streamed reply's bytes become elements: server-sent events, JSON Lines or raw chunks. Pass one
/// to ``NetworkLayer/stream(_:as:options:eventHandler:completionHandler:)``.
///
/// ```swift
/// network.stream(request, as: .serverSentEvents) { event in
///     transcript += event.data
/// } completionHandler: { result in
///     isTyping = false
/// }
/// ```
public struct StreamFormat<Element>: Sendable {
    /// The `Accept` a request gets unless it names one; `nil` for raw chunks.
    let accept: String?
    package let makeParser: @Sendable (StreamParserContext) -> StreamParser<Element>
    /// Only server-sent event streams reconnect.
    var isServerSentEvents: Bool { accept == "text/event-stream" }
}

extension StreamFormat where Element == ServerSentEvent {
    /// A `text/event-stream` reply, parsed by the WHATWG HTML standard's rules into ``ServerSentEvent``s.
    public static var serverSentEvents: Self {
        StreamFormat(accept: "text/event-stream") { context in
            var parser = ServerSentEventParser(
                maximumEventSize: context.maximumEventSize, lastEventID: context.state.lastEventID)
            return StreamParser { chunk in
                var events: [ServerSentEvent] = []
                let overflowed = (try? parser.events(in: chunk, into: &events)) == nil
                context.state.record(
                    lastEventID: parser.lastEventID, retry: parser.reconnectionTime, events: events.count)
                return StreamBatch(
                    elements: events.map { ($0, $0.byteCount) },
                    failure: overflowed ? context.tooLarge() : nil)
            }
        }
    }
}

extension StreamFormat where Element: Decodable & SendableMetatype {
    /// A `text/event-stream` reply whose events' `data` are JSON, each decoded as an `Element`; one that
    /// doesn't decode fails the stream with a ``StreamDecodingError``. To decode only some event types,
    /// use ``serverSentEvents(decoding:eventTypes:)``.
    ///
    /// - Parameter type: The type each event's data decodes to.
    public static func serverSentEvents(decoding type: Element.Type) -> Self {
        decodingEvents(of: nil)
    }

    /// A `text/event-stream` reply of which only the named event types are decoded as `Element` (an
    /// event without `event:` is `"message"`); the others are passed by, though their `id:` and `retry:`
    /// still apply.
    ///
    /// ```swift
    /// let format = StreamFormat.serverSentEvents(decoding: Comment.self, eventTypes: ["comment"])
    /// for try await comment in network.stream(request, as: format) {
    ///     comments.append(comment)
    /// }
    /// ```
    ///
    /// A named event that doesn't decode fails the stream with a ``StreamDecodingError``.
    ///
    /// - Parameters:
    ///   - type: The type the named events' data decode to.
    ///   - eventTypes: The event types to decode, as their `event:` field names them.
    public static func serverSentEvents(decoding type: Element.Type, eventTypes: Set<String>) -> Self {
        decodingEvents(of: eventTypes)
    }

    private static func decodingEvents(of types: Set<String>?) -> Self {
        let events = StreamFormat<ServerSentEvent>.serverSentEvents
        return StreamFormat(accept: events.accept) { context in
            let parser = events.makeParser(context)
            var number = 0
            return StreamParser { chunk in
                let events = parser.parse(chunk)
                // Counted among every event, so the number matches what the server sent.
                return context.decode(events.elements, numbering: &number, failure: events.failure) {
                    event, size in
                    types.map { $0.contains(event.event) } ?? true ? (Data(event.data.utf8), size) : nil
                }
            }
        }
    }

    /// A JSON Lines (NDJSON) reply: one JSON value per line, decoded as an `Element`. Blank lines are
    /// skipped, a last line without a line feed counts, and one that doesn't decode fails the stream
    /// with a ``StreamDecodingError``.
    ///
    /// - Parameter type: The type each line decodes to.
    public static func jsonLines(_ type: Element.Type) -> Self {
        StreamFormat(accept: "application/jsonl, application/x-ndjson, application/json;q=0.9") { context in
            var lines = LineSplitter(maximumLineLength: context.maximumEventSize)
            var number = 0
            let decode = { (split: (lines: [ArraySlice<UInt8>], overflow: Bool)) -> StreamBatch<Element> in
                context.decode(
                    split.lines, numbering: &number, asLines: true,
                    failure: split.overflow ? context.tooLarge() : nil
                ) { line in
                    line.contains(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D })
                        ? (Data(line), line.count) : nil
                }
            }
            return StreamParser { chunk in
                decode(lines.lines(in: chunk))
            } end: {
                decode((lines.remainder().map { [$0] } ?? [], false))
            }
        }
    }
}

extension StreamFormat where Element == Data {
    /// The reply's bytes as they arrive, in chunks of whatever size the network delivers.
    public static var chunks: Self {
        StreamFormat(accept: nil) { _ in
            StreamParser { chunk in
                StreamBatch(elements: chunk.isEmpty ? [] : [(chunk, chunk.count)])
            }
        }
    }
}

/// One connection's parser, owned by its sink on the delegate queue.
package struct StreamParser<Element> {
    package let parse: (Data) -> StreamBatch<Element>
    package var end: () -> StreamBatch<Element> = { StreamBatch(elements: []) }
}

/// What one chunk (or the end) completes, with each element's byte count, and why the stream fails there
/// if it does. Elements before a failure are still delivered.
package struct StreamBatch<Element> {
    package let elements: [(Element, Int)]
    package var failure: NetworkError?
}

package struct StreamParserContext: Sendable {
    let decoder: UncheckedSendable<JSONDecoder>
    let maximumEventSize: Int
    let state: StreamState

    package init(decoder: JSONDecoder, maximumEventSize: Int, state: StreamState) {
        self.decoder = UncheckedSendable(value: decoder)
        self.maximumEventSize = maximumEventSize
        self.state = state
    }

    func tooLarge() -> NetworkError {
        let text = "An event or line of the stream is longer than the limit of \(maximumEventSize) bytes."
        return .transport(URLError(.dataLengthExceedsMaximum, userInfo: [NSLocalizedDescriptionKey: text]))
    }

    /// Decodes the items `json` gives bytes for (and a size; `nil` skips one), numbering every item on from
    /// `number`; the first that doesn't decode fails the batch, else `failure` does.
    func decode<T: Decodable & SendableMetatype, Item>(
        _ items: [Item], numbering number: inout Int, asLines: Bool = false, failure: NetworkError?,
        json: (Item) -> (Data, Int)?
    ) -> StreamBatch<T> {
        var values: [(T, Int)] = []
        for item in items {
            number += 1
            guard let (data, size) = json(item) else { continue }
            do {
                values.append((try decoder.value.decode(T.self, from: data), size))
            } catch {
                let position = StreamDecodingError(
                    line: asLines ? number : nil, event: asLines ? nil : number, underlyingError: error)
                return StreamBatch(elements: values, failure: .decodingFailed(position, body: data))
            }
        }
        return StreamBatch(elements: values, failure: failure)
    }
}

/// An element of a stream that didn't decode: the error of ``NetworkError/decodingFailed(_:body:)``.
public struct StreamDecodingError: Error, CustomStringConvertible {
    /// The line that didn't decode, counted from 1, for JSON Lines (blank lines count too).
    public let line: Int?
    /// The event whose data didn't decode, counted from 1 among all of its connection's events, for
    /// decoded server-sent events.
    public let event: Int?
    /// What the decoder threw.
    public let underlyingError: any Error

    /// Which element didn't decode, and what the decoder said.
    public var description: String {
        let position = line.map { "Line \($0)" } ?? event.map { "Event \($0)" } ?? "An element"
        return "\(position) of the stream could not be decoded: \(underlyingError)"
    }
}

extension NetworkRequest where Value == Data {
    /// This request asking for `format`'s media type unless it names one; shared with the test doubles.
    package func accepting<Element>(_ format: StreamFormat<Element>) -> Self {
        guard let accept = format.accept,
            !headers.keys.contains(where: { $0.lowercased() == "accept" })
        else { return self }
        var request = self
        request.headers["Accept"] = accept
        return request
    }
}
