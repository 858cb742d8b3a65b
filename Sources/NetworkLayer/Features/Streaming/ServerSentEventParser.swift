import Foundation

/// Parses a `text/event-stream` body as it arrives, by the rules of the WHATWG HTML standard
/// ("Interpreting an event stream"): UTF-8 with an optional byte order mark, lines ending in CRLF, LF or
/// CR, `:` comments, multi-line `data`, `event`, `id` (ignored when it contains NUL), `retry` (digits
/// only), an event dispatched at a blank line, an event without data not dispatched, and an event the
/// stream ends in the middle of dropped.
///
/// Owned by one transfer, on the session's delegate queue; one parser per connection, while the last
/// event ID and the reconnection time outlive it (the stream's ``StreamState``).
struct ServerSentEventParser {
    private var lines: LineSplitter
    private let maximumEventSize: Int
    private var atStart = true
    private var startBytes: [UInt8] = []
    private var eventType = ""
    private var data = ""
    private var hasData = false
    private var retry: TimeInterval?
    private var idBuffer: String
    /// The last event ID: set at each blank line from the `id` fields seen so far; it persists from
    /// event to event, and across reconnections.
    private(set) var lastEventID: String
    /// The reconnection time the stream set last, in seconds.
    private(set) var reconnectionTime: TimeInterval?

    /// - Parameters:
    ///   - maximumEventSize: The most bytes one line, or one event's data, may take.
    ///   - lastEventID: The ID of the last event of an earlier connection of the same stream.
    init(maximumEventSize: Int, lastEventID: String = "") {
        self.maximumEventSize = maximumEventSize
        lines = LineSplitter(maximumLineLength: maximumEventSize)
        self.lastEventID = lastEventID
        idBuffer = lastEventID
    }

    /// Appends the events `chunk` completes to `events`, in order; throws once a line or an event is too
    /// long, after appending those before it.
    mutating func events(in chunk: Data, into events: inout [ServerSentEvent]) throws(StreamLimitError) {
        var chunk = chunk
        if atStart {
            // The byte order mark may itself arrive split over chunks.
            startBytes.append(contentsOf: chunk)
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            if startBytes.count < 3, bom.starts(with: startBytes) { return }
            atStart = false
            chunk = Data(startBytes.starts(with: bom) ? startBytes.dropFirst(3) : startBytes[...])
            startBytes = []
        }
        let complete = lines.lines(in: chunk)
        for line in complete.lines {
            if let event = try process(line) { events.append(event) }
        }
        if complete.overflow { throw StreamLimitError(limit: maximumEventSize) }
    }

    private mutating func process(_ line: ArraySlice<UInt8>) throws(StreamLimitError) -> ServerSentEvent? {
        guard let first = line.first else { return dispatch() }
        if first == UInt8(ascii: ":") { return nil }
        let field: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            field = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            field = line
            value = []
        }
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data += "\n" }
            data += String(decoding: value, as: UTF8.self)
            hasData = true
            if data.utf8.count > maximumEventSize { throw StreamLimitError(limit: maximumEventSize) }
        case "id":
            if !value.contains(0) { idBuffer = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ (0x30...0x39).contains($0) }),
                let milliseconds = Int(String(decoding: value, as: UTF8.self))
            {
                retry = TimeInterval(milliseconds) / 1000
                reconnectionTime = retry
            }
        default:
            break
        }
        return nil
    }

    /// A blank line: the event so far, if it has data; the buffers start over either way.
    private mutating func dispatch() -> ServerSentEvent? {
        lastEventID = idBuffer
        defer {
            eventType = ""
            data = ""
            hasData = false
            retry = nil
        }
        guard hasData else { return nil }
        return ServerSentEvent(
            event: eventType.isEmpty ? "message" : eventType, data: data,
            id: lastEventID.isEmpty ? nil : lastEventID, retry: retry)
    }
}

/// A line or an event longer than the stream allows.
struct StreamLimitError: Error {
    let limit: Int
}
