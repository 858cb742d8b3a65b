import Foundation

/// How a stream ended well: what its completion handler receives after the last event.
public struct StreamSummary: Sendable {
    /// The status code of the last connection's reply.
    public let statusCode: Int
    /// The header fields of the last connection's reply.
    public let headers: ResponseHeaders
    /// The URL of the last connection's reply, after redirects.
    public let url: URL?
    /// How many elements (events, lines or chunks) were delivered, over every connection.
    public let eventCount: Int
    /// Body bytes received, over every connection (after gzip inflation).
    public let byteCount: Int
    /// How many times the stream reconnected.
    public let reconnectCount: Int
    /// The last event ID a server-sent event stream set, to send back as `Last-Event-ID` to resume.
    public let lastEventID: String?
    /// What the stream cost, measured by the layer; `nil` from a test double that gave none.
    public let metrics: RequestMetrics?

    /// A summary with these values; test doubles make them.
    ///
    /// - Parameters:
    ///   - statusCode: The last reply's status code.
    ///   - headers: The last reply's header fields.
    ///   - url: The last reply's URL.
    ///   - eventCount: Elements delivered.
    ///   - byteCount: Body bytes received.
    ///   - reconnectCount: Reconnections made.
    ///   - lastEventID: The last event ID set, if any.
    ///   - metrics: What the stream cost.
    public init(
        statusCode: Int = 200, headers: ResponseHeaders = ResponseHeaders([:]), url: URL? = nil,
        eventCount: Int, byteCount: Int, reconnectCount: Int = 0, lastEventID: String? = nil,
        metrics: RequestMetrics? = nil
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.url = url
        self.eventCount = eventCount
        self.byteCount = byteCount
        self.reconnectCount = reconnectCount
        self.lastEventID = lastEventID
        self.metrics = metrics
    }
}
