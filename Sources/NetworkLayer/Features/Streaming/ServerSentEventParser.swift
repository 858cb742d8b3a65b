import Foundation

/// Parses a `text/event-stream` body as it arrives, by the WHATWG HTML standard's "Interpreting an event
/// stream" rules. One per connection, on the delegate queue; the last event ID and `retry:` outlive it
/// in ``StreamState``.
struct ServerSentEventParser {
    private var lines: LineSplitter
    private let maximumEventSize: Int
    /// The first bytes, until they show whether the stream opens with a byte order mark; `nil` after.
    private var startBytes: [UInt8]? = []
    private var eventType = ""
    private var data = ""
    private var hasData = false
    private var retry: TimeInterval?
    private var idBuffer: String
    /// Set at each blank line from the `id` fields so far; persists across events and reconnections.
    private(set) var lastEventID: String
    private(set) var reconnectionTime: TimeInterval?

    init(maximumEventSize: Int, lastEventID: String = "") {
        self.maximumEventSize = maximumEventSize
        lines = LineSplitter(maximumLineLength: maximumEventSize)
        self.lastEventID = lastEventID
        idBuffer = lastEventID
    }

    /// Appends the events `chunk` completes; throws once a line or event is too long, after those before.
    mutating func events(in chunk: Data, into events: inout [ServerSentEvent]) throws(StreamLimitError) {
        var chunk = chunk
        startBytes?.append(contentsOf: chunk)
        if let start = startBytes {
            // The byte order mark may itself arrive split over chunks.
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            if start.count < 3, bom.starts(with: start) { return }
            startBytes = nil
            chunk = Data(start.starts(with: bom) ? start.dropFirst(3) : start[...])
        }
        let complete = lines.lines(in: chunk)
        for line in complete.lines {
            if let event = try process(line) { events.append(event) }
        }
        if complete.overflow { throw StreamLimitError() }
    }

    private mutating func process(_ line: ArraySlice<UInt8>) throws(StreamLimitError) -> ServerSentEvent? {
        guard let first = line.first else { return dispatch() }
        if first == UInt8(ascii: ":") { return nil }
        // A line without a colon is a field with an empty value.
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let field = line[..<colon]
        var value = line[colon...].dropFirst()
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        switch String(decoding: field, as: UTF8.self) {
        case "event":
            eventType = String(decoding: value, as: UTF8.self)
        case "data":
            if hasData { data += "\n" }
            data += String(decoding: value, as: UTF8.self)
            hasData = true
            if data.utf8.count > maximumEventSize { throw StreamLimitError() }
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

/// A line or event longer than the parser's limit; the format's error names the limit.
struct StreamLimitError: Error {}
