import Foundation

/// How a layer's requests share a server: identical requests in flight share one network request, a
/// server's rate limit holds every request to it, and a budget caps the requests in flight per origin.
/// See <doc:SchedulingRequests>.
///
/// ```swift
/// let network = NetworkLayer(
///     baseURL: api, scheduling: RequestScheduling(maximumRequestsPerOrigin: 4))
/// ```
///
/// Sharing and the rate-limit wait are on by default, a hold lasting at most an hour; the budget is off
/// (no limit). A request's own ``NetworkRequest/scheduling`` replaces the layer's for that request.
public struct RequestScheduling: Sendable, Equatable {
    /// Whether identical `GET` and `HEAD` requests in flight at once share one network request: identical
    /// as they go on the wire, after every interceptor adapted them and with the cookies the session adds
    /// (the same method, URL without its fragment, header fields except ``headerFieldsIgnoredForSharing``,
    /// cookies), for the same account, limits and cache policy. A caller never receives a reply fetched with
    /// credentials its own request would not have carried. Each caller runs its own interceptors and
    /// retries, decodes the shared bytes into its own type, gets its own handler call, and can cancel or
    /// time out without ending the others. Requests with a body, downloads, uploads and streams never
    /// share.
    public var sharesIdenticalRequests: Bool
    /// Whether a `429` or `503` with `Retry-After`, or `RateLimit` fields saying nothing remains, hold
    /// every request of the layer to the origin that answered until the time given (at most
    /// ``maximumRateLimitWait``): they wait instead of reaching the server (a request whose time limit ends
    /// sooner fails at once with ``NetworkError/rateLimited(until:)``). During a hold with more than
    /// 30 seconds left, a request of ``RequestPriority/userInitiated`` priority or higher goes out as a
    /// probe, at most one every 30 seconds from the server's last reply asking a pause, and a success lifts
    /// the hold. ``NetworkLayer/liftRateLimit(for:)`` lifts one. For a request, whether it waits.
    public var waitsForRateLimits: Bool
    /// The longest a server's reply holds its origin, in seconds, whatever it asks for: 3,600 (one hour)
    /// by default.
    ///
    /// Why an hour: it covers the windows real APIs reset in (a minute, 15 minutes, GitHub's hour), so the
    /// layer doesn't send what the server said it would refuse; yet a reply that asks for a year (a
    /// mistake, a hostile server) stops the origin for an hour, not until the app is killed. When the
    /// server's pause really is longer, the first request after the hour collects what remains of it:
    /// one request an hour. So work that waits for the origin (an ``Outbox``, whose items wait out a
    /// hold) never stalls for ever: at most this long per hold. 0 or less (or NaN) keeps no hold; more
    /// than a year is a year. The layer's value counts: a hold is every request's, so a request's own
    /// ``NetworkRequest/scheduling`` doesn't change it.
    public var maximumRateLimitWait: TimeInterval
    /// The most requests in flight to one origin (scheme, host and port) at once; more wait, highest
    /// ``RequestPriority`` first. `nil`, the default, is no limit. Streams don't count; downloads and
    /// uploads do. For a request, `nil` exempts it and any number counts it against the layer's budget.
    public var maximumRequestsPerOrigin: Int?

    /// Scheduling with these parts on or off.
    ///
    /// - Parameters:
    ///   - sharesIdenticalRequests: Whether identical `GET` and `HEAD` requests in flight share one.
    ///   - waitsForRateLimits: Whether a server's rate limit holds every request to its origin.
    ///   - maximumRequestsPerOrigin: The most requests in flight per origin; `nil` for no limit.
    ///   - maximumRateLimitWait: The longest a server's reply holds its origin, in seconds.
    public init(
        sharesIdenticalRequests: Bool = true, waitsForRateLimits: Bool = true,
        maximumRequestsPerOrigin: Int? = nil, maximumRateLimitWait: TimeInterval = 3_600
    ) {
        self.sharesIdenticalRequests = sharesIdenticalRequests
        self.waitsForRateLimits = waitsForRateLimits
        self.maximumRequestsPerOrigin = maximumRequestsPerOrigin.map { max(1, $0) }
        self.maximumRateLimitWait = maximumRateLimitWait
    }

    /// Sharing and the rate-limit wait on, no budget.
    public static let `default` = RequestScheduling()
    /// Every request on its own, as a plain `URLSession` sends them.
    public static let disabled = RequestScheduling(sharesIdenticalRequests: false, waitsForRateLimits: false)

    /// Header fields that can't change a reply, so requests that differ only in them still share: tracing
    /// and correlation ids, as the request and its interceptors set them. Compared without case; never a
    /// credential.
    public static let headerFieldsIgnoredForSharing: Set<String> = [
        "traceparent", "tracestate", "baggage", "x-request-id", "x-correlation-id", "request-id",
        "x-b3-traceid", "x-b3-spanid", "x-b3-parentspanid", "x-b3-sampled", "b3", "x-amzn-trace-id",
        "sentry-trace",
    ]
}
