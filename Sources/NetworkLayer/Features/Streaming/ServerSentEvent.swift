import Foundation

/// One event of a `text/event-stream` reply, as the WHATWG HTML standard dispatches it.
public struct ServerSentEvent: Sendable, Hashable {
    /// The event's type: its `event:` field, or `"message"` when it had none.
    public var event: String
    /// The event's `data:` lines, joined by line feeds.
    public var data: String
    /// The last event ID at this event (from its `id:` or an earlier one), sent back as `Last-Event-ID`
    /// on reconnection; `nil` when none was set (or it was set empty).
    public var id: String?
    /// The reconnection time this event's `retry:` field set, in seconds; `nil` when it had none.
    public var retry: TimeInterval?

    /// An event with these fields: what a test double or a scripted server sends.
    ///
    /// - Parameters:
    ///   - event: The event's type; `"message"` by default.
    ///   - data: The event's data.
    ///   - id: The last event ID at this event.
    ///   - retry: The reconnection time the event set, in seconds.
    public init(event: String = "message", data: String, id: String? = nil, retry: TimeInterval? = nil) {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
    }
}

extension ServerSentEvent {
    /// The event in the wire format a server writes, ending in a blank line; parsing it gives it back.
    public var wireFormat: String {
        var text = event == "message" ? "" : "event: \(event)\n"
        if let id { text += "id: \(id)\n" }
        if let retry { text += "retry: \(Int((retry * 1000).rounded()))\n" }
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
            text += "data: \(line)\n"
        }
        return text + "\n"
    }

    var byteCount: Int { data.utf8.count + event.utf8.count + (id?.utf8.count ?? 0) }
}
