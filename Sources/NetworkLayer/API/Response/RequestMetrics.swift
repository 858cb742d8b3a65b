import Foundation

/// What one request cost, measured by the layer itself with a monotonic clock, on every platform
/// (`URLSessionTaskMetrics` never arrive on Linux). Summed over every attempt of a retried request.
public struct RequestMetrics: Sendable, Equatable {
    /// When the request method was called (wall-clock, for display).
    public var startDate: Date
    /// Seconds from the request method's call to the outcome.
    public var duration: TimeInterval
    /// Seconds from the last attempt's start to its response head; `nil` without a response.
    public var timeToFirstByte: TimeInterval?
    /// Body bytes sent, over all attempts.
    public var bytesSent: Int
    /// Body bytes received (after gzip inflation), over all attempts.
    public var bytesReceived: Int
    /// How many attempts were made: 1 without retries (a stream's reconnections count).
    public var attempts: Int
    /// How many elements (events, lines or chunks) a stream delivered; `nil` for any other request.
    public var eventCount: Int?
    /// Seconds the request waited for its server before an attempt, over all attempts: behind the
    /// per-origin budget, or for a rate limit to end (see ``RequestScheduling``). Part of ``duration``.
    public var queuedDuration: TimeInterval = 0
    /// How many times the transport asked for an attempt's body again, over all attempts: libcurl, finding
    /// the kept-alive connection it sent on closed, sends the request once more on a new one. A body from a
    /// file or a stream goes out again, so the server may have received the request twice: send an
    /// idempotency key with anything it must not act on twice. A body sent as `httpBody` can't be given
    /// again: it is counted too, and that attempt fails with `networkConnectionLost` (the server may have
    /// received it once). A request without a body (a `GET`) is sent again unseen and not counted. Not part
    /// of ``attempts``. See <doc:LinuxNotes>.
    public var bodyResends = 0

    /// How many callers the request's last attempt served: 1 when it went out alone; more when identical
    /// requests in flight at once shared one send (``RequestScheduling/sharesIdenticalRequests``), each
    /// caller's metrics then telling the same number.
    public var sharedCallers = 1
    /// The part of ``queuedDuration`` the request waited behind its origin's budget
    /// (``RequestScheduling/maximumRequestsPerOrigin``), over all attempts.
    public var budgetQueuedDuration: TimeInterval = 0
    /// The part of ``queuedDuration`` the request waited for a server's rate limit to end (a reply's
    /// `Retry-After` or `RateLimit` fields held its origin; see ``RequestScheduling/waitsForRateLimits``),
    /// over all attempts.
    public var rateLimitQueuedDuration: TimeInterval = 0

    /// Seconds the interceptors took to adapt each attempt and to decide on each failure, over all
    /// attempts: most often, waiting for a token or its refresh (``BearerTokenAuthenticator``). Not the
    /// delays between attempts, which ``NetworkMonitor/willRetry(_:after:because:)`` tells. Part of
    /// ``duration``; 0 unless a monitor watches the request.
    public var policyWaitDuration: TimeInterval = 0
    /// Seconds from the final reply's arrival to its outcome: validation, the wait for the queue that
    /// decodes, and decoding. Part of ``duration``; 0 unless a monitor watches the request.
    public var decodeDuration: TimeInterval = 0
    /// Seconds from the outcome to its handler's call: the wait for the callback queue (most often the
    /// main queue). Part of ``duration`` in the metrics a monitor receives; 0 in those a success handler
    /// receives (``NetworkResponse/metrics``, taken before it is called), and unless a monitor watches the
    /// request.
    public var deliveryDuration: TimeInterval = 0

    /// What the layer's ``ResponseCache`` did with the request's last attempt: `nil` when no cache looked
    /// at it (the layer has none; a stream or a transfer), or when it answered nothing (a request only the
    /// cache may answer, with nothing stored: see ``cacheReason``). A success carries it as
    /// ``NetworkResponse/cacheStatus`` too.
    public var cacheStatus: CacheStatus?
    /// Why the cache decided as ``cacheStatus`` says; `nil` when no cache looked at the request.
    public var cacheReason: CacheReason?

    /// Metrics with these values; test doubles and adapters make them.
    ///
    /// - Parameters:
    ///   - startDate: When the request method was called.
    ///   - duration: Seconds from the call to the outcome.
    ///   - timeToFirstByte: Seconds from the last attempt's start to its response head, if one came.
    ///   - bytesSent: Body bytes sent, over all attempts.
    ///   - bytesReceived: Body bytes received, over all attempts.
    ///   - attempts: How many attempts were made.
    ///   - eventCount: How many elements a stream delivered; `nil` for any other request.
    public init(
        startDate: Date, duration: TimeInterval, timeToFirstByte: TimeInterval?, bytesSent: Int,
        bytesReceived: Int, attempts: Int, eventCount: Int?
    ) {
        self.startDate = startDate
        self.duration = duration
        self.timeToFirstByte = timeToFirstByte
        self.bytesSent = bytesSent
        self.bytesReceived = bytesReceived
        self.attempts = attempts
        self.eventCount = eventCount
    }

    /// Metrics of a request that isn't a stream.
    ///
    /// - Parameters:
    ///   - startDate: When the request method was called.
    ///   - duration: Seconds from the call to the outcome.
    ///   - timeToFirstByte: Seconds from the last attempt's start to its response head, if one came.
    ///   - bytesSent: Body bytes sent, over all attempts.
    ///   - bytesReceived: Body bytes received, over all attempts.
    ///   - attempts: How many attempts were made.
    public init(
        startDate: Date, duration: TimeInterval, timeToFirstByte: TimeInterval?, bytesSent: Int,
        bytesReceived: Int, attempts: Int
    ) {
        self.init(
            startDate: startDate, duration: duration, timeToFirstByte: timeToFirstByte, bytesSent: bytesSent,
            bytesReceived: bytesReceived, attempts: attempts, eventCount: nil)
    }
}
