/// How a layer's requests share a server: identical requests in flight share one network request, a
/// server's rate limit holds every request to it, and a budget caps the requests in flight per origin.
/// See <doc:SchedulingRequests>.
///
/// ```swift
/// let network = NetworkLayer(
///     baseURL: api, scheduling: RequestScheduling(maximumRequestsPerOrigin: 4))
/// ```
///
/// Sharing and the rate-limit wait are on by default; the budget is off (no limit). A request's own
/// ``NetworkRequest/scheduling`` replaces the layer's for that request.
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
    /// every request of the layer to that origin until the time given: they wait instead of reaching the
    /// server (a request whose time limit ends sooner fails at once with
    /// ``NetworkError/rateLimited(until:)``). For a request, whether it waits.
    public var waitsForRateLimits: Bool
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
    public init(
        sharesIdenticalRequests: Bool = true, waitsForRateLimits: Bool = true,
        maximumRequestsPerOrigin: Int? = nil
    ) {
        self.sharesIdenticalRequests = sharesIdenticalRequests
        self.waitsForRateLimits = waitsForRateLimits
        self.maximumRequestsPerOrigin = maximumRequestsPerOrigin.map { max(1, $0) }
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
