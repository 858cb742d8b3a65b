import Foundation

/// How a stream behaves beyond its request: reconnection (server-sent events only), the idle timeout
/// between events, and the largest event. Set it on the request (``NetworkRequest/streamOptions``) or
/// pass it to the call; the call's wins.
public struct ServerSentEventsOptions: Sendable, Equatable {
    /// Whether a server-sent event stream that ends, or whose connection is lost or falls idle, is opened
    /// again. `nil`, the default, reconnects GET streams only: most streaming APIs are POSTs that must not
    /// be repeated. A reconnection waits the reconnection time (the server's latest `retry:`, else
    /// ``reconnectionDelay``, never less than ``minimumReconnectionDelay``, doubled for each earlier
    /// reconnection in a row, at most the retry policy's `maximumDelay` but never under the floor), goes through the interceptors
    /// again (a fresh token) and sends `Last-Event-ID` when an event had an ID. A reply that isn't 2xx
    /// (or 204, the server's way of saying stop), a wrong content type, an event that is too large or
    /// doesn't decode, or a cancel ends the stream without one.
    public var reconnects: Bool?
    /// The most reconnections in a row without a connection worth keeping between them: one that had an
    /// event and lasted at least a second. The stream then fails with
    /// ``NetworkError/tooManyReconnects(_:)`` when some of those connections had events (the server
    /// keeps ending the stream early), else with the error of its last connection (the server is out
    /// of reach, or sends nothing). `.max` reconnects for ever.
    public var maximumReconnects: Int
    /// Seconds to wait before reconnecting until the server sets a `retry:` time.
    public var reconnectionDelay: TimeInterval
    /// The least wait before a reconnection, in seconds, whatever the server's `retry:` or
    /// ``reconnectionDelay`` say: a server can't make a stream reconnect in a tight loop. Values under
    /// a millisecond (zero, negative, NaN) count as a millisecond.
    public var minimumReconnectionDelay: TimeInterval
    /// Seconds the stream may go without data (an event, or a comment a server sends as a heartbeat)
    /// once the reply has started, before it fails with ``NetworkError/timedOut`` (or reconnects);
    /// `nil` (or zero, a negative value, NaN) uses the request's timeout. Until the reply starts, the
    /// request's timeout applies. It may be longer than the request's timeout.
    public var idleTimeout: TimeInterval?
    /// The most bytes one event's data, or one line, may take; a larger one fails the stream with
    /// `URLError(.dataLengthExceedsMaximum)`. The stream as a whole has no size limit.
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

    /// The floor as applied: at least a millisecond.
    var effectiveMinimumReconnectionDelay: TimeInterval {
        minimumReconnectionDelay.isNaN ? 0.001 : max(0.001, minimumReconnectionDelay)
    }
}
