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
    /// What kind of stream it is: the media type asked for in `Accept`, and whether reconnection applies.
    let kind: Kind
    /// A parser for one connection of the stream.
    let makeParser: @Sendable (StreamParserContext) -> StreamParser<Element>

    enum Kind: Sendable {
        case serverSentEvents
        case jsonLines
        case chunks

        /// The `Accept` header sent unless the request names one.
        var accept: String? {
            switch self {
            case .serverSentEvents: "text/event-stream"
            case .jsonLines: "application/jsonl, application/x-ndjson, application/json;q=0.9"
            case .chunks: nil
            }
        }
    }
}

extension StreamFormat where Element == ServerSentEvent {
    /// A `text/event-stream` reply, parsed by the WHATWG HTML standard's rules into ``ServerSentEvent``s.
    public static var serverSentEvents: Self {
        StreamFormat(kind: .serverSentEvents) { context in
            var parser = ServerSentEventParser(
                maximumEventSize: context.maximumEventSize, lastEventID: context.state.lastEventID)
            return StreamParser { chunk throws(NetworkError) in
                do {
                    let events = try parser.events(in: chunk)
                    context.state.record(lastEventID: parser.lastEventID, retry: parser.reconnectionTime)
                    return events.map { ($0, $0.data.utf8.count) }
                } catch {
                    throw context.tooLarge()
                }
            } end: {
                []
            }
        }
    }
}

extension StreamFormat where Element: Decodable & SendableMetatype {
    /// A `text/event-stream` reply whose events' `data` are JSON, each decoded as an `Element` with the
    /// layer's decoder. An event that doesn't decode fails the stream with
    /// ``NetworkError/decodingFailed(_:body:)`` carrying a ``StreamDecodingError`` that names it.
    ///
    /// - Parameter type: The type each event's data decodes to.
    public static func serverSentEvents(decoding type: Element.Type) -> Self {
        let events = StreamFormat<ServerSentEvent>.serverSentEvents
        return StreamFormat(kind: .serverSentEvents) { context in
            let parser = events.makeParser(context)
            var number = 0
            return StreamParser { chunk throws(NetworkError) in
                try parser.parse(chunk).map { event, size throws(NetworkError) in
                    number += 1
                    return (try context.decode(Element.self, Data(event.data.utf8), event: number), size)
                }
            } end: {
                []
            }
        }
    }

    /// A JSON Lines (NDJSON) reply: one JSON value per line, each decoded as an `Element` with the layer's
    /// decoder. Blank lines are skipped, and a last line without its line feed counts. A line that doesn't
    /// decode fails the stream with ``NetworkError/decodingFailed(_:body:)`` carrying a
    /// ``StreamDecodingError`` that names the line.
    ///
    /// - Parameter type: The type each line decodes to.
    public static func jsonLines(_ type: Element.Type) -> Self {
        StreamFormat(kind: .jsonLines) { context in
            var lines = LineSplitter(maximumLineLength: context.maximumEventSize)
            var number = 0
            let decode = { (batch: [ArraySlice<UInt8>]) throws(NetworkError) -> [(Element, Int)] in
                var values: [(Element, Int)] = []
                for line in batch {
                    number += 1
                    guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
                    values.append((try context.decode(Element.self, Data(line), line: number), line.count))
                }
                return values
            }
            return StreamParser { chunk throws(NetworkError) in
                guard let batch = lines.lines(in: chunk) else { throw context.tooLarge() }
                return try decode(batch)
            } end: { () throws(NetworkError) in
                try decode(lines.remainder().map { [$0] } ?? [])
            }
        }
    }
}

extension StreamFormat where Element == Data {
    /// The reply's bytes as they arrive, in chunks of whatever size the network delivers.
    public static var chunks: Self {
        StreamFormat(kind: .chunks) { _ in
            StreamParser { chunk in
                chunk.isEmpty ? [] : [(chunk, chunk.count)]
            } end: {
                []
            }
        }
    }
}

/// One connection's parser: the elements each chunk completes, with the bytes each took, and what the
/// end of the reply completes. Owned by the connection's sink, on the session's delegate queue.
struct StreamParser<Element> {
    let parse: (Data) throws(NetworkError) -> [(Element, Int)]
    let end: () throws(NetworkError) -> [(Element, Int)]

    init(
        _ parse: @escaping (Data) throws(NetworkError) -> [(Element, Int)],
        end: @escaping () throws(NetworkError) -> [(Element, Int)]
    ) {
        self.parse = parse
        self.end = end
    }
}

/// What a parser is made with: the layer's decoder, the size limit and the stream's state.
struct StreamParserContext: Sendable {
    let decoder: UncheckedSendable<JSONDecoder>
    let maximumEventSize: Int
    let state: StreamState

    func tooLarge() -> NetworkError {
        .transport(
            URLError(
                .dataLengthExceedsMaximum,
                userInfo: [
                    NSLocalizedDescriptionKey:
                        "An event or line of the stream is longer than the limit of \(maximumEventSize) bytes."
                ]))
    }

    func decode<T: Decodable & SendableMetatype>(
        _ type: T.Type, _ data: Data, line: Int? = nil, event: Int? = nil
    ) throws(NetworkError) -> T {
        do {
            return try decoder.value.decode(T.self, from: data)
        } catch {
            throw .decodingFailed(
                StreamDecodingError(line: line, event: event, underlyingError: error), body: data)
        }
    }
}

/// An element of a stream that didn't decode: which one, and why. A stream that fails this way fails
/// with ``NetworkError/decodingFailed(_:body:)``, this error, and the element's bytes as the body.
public struct StreamDecodingError: Error, CustomStringConvertible {
    /// The line that didn't decode, counted from 1, for JSON Lines (blank lines count too).
    public let line: Int?
    /// The event whose data didn't decode, counted from 1, for decoded server-sent events.
    public let event: Int?
    /// What the decoder threw.
    public let underlyingError: any Error

    public var description: String {
        let position = line.map { "Line \($0)" } ?? event.map { "Event \($0)" } ?? "An element"
        return "\(position) of the stream could not be decoded: \(underlyingError)"
    }
}
