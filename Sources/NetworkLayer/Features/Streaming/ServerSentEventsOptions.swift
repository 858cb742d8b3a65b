import Foundation

/// How a stream behaves beyond its request: reconnection (server-sent events only), idle timeout and the
/// largest event. Set on the request (``NetworkRequest/streamOptions``) or the call; the call's wins.
public struct ServerSentEventsOptions: Sendable, Equatable {
    /// Whether a server-sent event stream that ends, drops or falls idle is opened again; `nil` (default)
    /// reconnects GET streams only, since most streaming APIs are POSTs that must not be repeated. Waits,
    /// interceptors and `Last-Event-ID` are described in <doc:StreamingReplies>; a non-2xx reply (or 204),
    /// a wrong content type, an oversized or undecodable event, or a cancel ends the stream for good.
    public var reconnects: Bool?
    /// The most reconnections in a row without a connection worth keeping (an event and a second long).
    /// Then the stream fails with ``NetworkError/tooManyReconnects(_:)`` if some had events, else with its
    /// last connection's error. `.max` reconnects for ever.
    public var maximumReconnects: Int
    /// Seconds to wait before reconnecting until the server sets a `retry:` time.
    public var reconnectionDelay: TimeInterval
    /// The least wait before a reconnection, whatever `retry:` or ``reconnectionDelay`` say, so a server
    /// can't force a tight loop; under a millisecond (or NaN) counts as a millisecond.
    public var minimumReconnectionDelay: TimeInterval
    /// Seconds the stream may go without data (events or heartbeat comments) once the reply started,
    /// before it fails with ``NetworkError/timedOut`` or reconnects; `nil`, non-positive or NaN uses the
    /// request's timeout, which also applies until the reply starts.
    public var idleTimeout: TimeInterval?
    /// The most bytes of one event's data or one line; more fails the stream with
    /// `URLError(.dataLengthExceedsMaximum)`. The stream as a whole has no limit.
    public var maximumEventSize: Int

    /// Options; the defaults are those of ``default``.
    ///
    /// - Parameters:
    ///   - reconnects: Whether the stream reconnects; `nil` for GET streams only.
    ///   - maximumReconnects: The most reconnections in a row without a connection worth keeping.
    ///   - reconnectionDelay: Seconds before reconnecting until the server sets `retry:`.
    ///   - minimumReconnectionDelay: The least wait before a reconnection, whatever `retry:` says.
    ///   - idleTimeout: Seconds the stream may go without data; `nil` uses the request's timeout.
    ///   - maximumEventSize: The most bytes of one event or line.
    public init(
        reconnects: Bool? = nil, maximumReconnects: Int = 5, reconnectionDelay: TimeInterval = 3,
        minimumReconnectionDelay: TimeInterval = 0.5, idleTimeout: TimeInterval? = nil,
        maximumEventSize: Int = 1 << 20
    ) {
        self.reconnects = reconnects
        self.maximumReconnects = maximumReconnects
        self.reconnectionDelay = reconnectionDelay
        self.minimumReconnectionDelay = minimumReconnectionDelay
        self.idleTimeout = idleTimeout
        self.maximumEventSize = maximumEventSize
    }

    /// GET streams reconnect (up to 5 times in a row, 3 s apart until the server says otherwise, never
    /// sooner than 0.5 s), the request's timeout between events, events up to 1 MiB.
    public static let `default` = ServerSentEventsOptions()

    /// As for a request's timeout, a value that can't be one (zero, negative, NaN) is no value.
    var effectiveIdleTimeout: TimeInterval? {
        idleTimeout.flatMap { $0 > 0 ? min($0, RequestBuilder.longestTimeout) : nil }
    }

    var effectiveMinimumReconnectionDelay: TimeInterval {
        minimumReconnectionDelay.isNaN ? 0.001 : max(0.001, minimumReconnectionDelay)
    }
}
