import Foundation

/// When a failed request is sent again, and how long the layer waits first.
///
/// Off by default (``none``). When on, only transient failures are retried (timeouts, lost or refused
/// connections, 408, 429, 500, 502-504), with exponential backoff and full jitter; `Retry-After` sets the
/// wait, up to ``maximumDelay``. Only idempotent methods unless ``retriesNonIdempotentRequests``. The
/// exact rules are in <doc:PoliciesAndAuthentication>.
///
/// ```swift
/// let network = NetworkLayer(baseURL: api, retryPolicy: .default)
/// ```
public struct RetryPolicy: Sendable, Hashable {
    /// The most attempts in all, the first included; 1 means no retry.
    public var maximumAttempts: Int
    /// The longest first wait, in seconds; each later one may be twice as long.
    public var initialDelay: TimeInterval
    /// The longest wait, in seconds, whatever the backoff or the server's `Retry-After` says.
    public var maximumDelay: TimeInterval
    /// Whether POST and PATCH are retried too: a server may have acted on a request whose reply was lost.
    public var retriesNonIdempotentRequests: Bool

    /// A policy; the defaults are those of ``default``.
    ///
    /// - Parameters:
    ///   - maximumAttempts: The most attempts in all, the first included; 1 means no retry.
    ///   - initialDelay: The longest first wait, in seconds; each later one may be twice as long.
    ///   - maximumDelay: The longest wait, in seconds, whatever the backoff or `Retry-After` says.
    ///   - retriesNonIdempotentRequests: Whether POST and PATCH are retried too.
    public init(
        maximumAttempts: Int = 3, initialDelay: TimeInterval = 0.5, maximumDelay: TimeInterval = 30,
        retriesNonIdempotentRequests: Bool = false
    ) {
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.retriesNonIdempotentRequests = retriesNonIdempotentRequests
    }

    /// No retries. In an optional context write `RetryPolicy.none`: `.none` alone is `Optional.none`.
    public static let none = RetryPolicy(maximumAttempts: 1)

    /// Three attempts, waits from 0.5 s up to 30 s, idempotent methods only.
    public static let `default` = RetryPolicy()

    package var retries: Bool { maximumAttempts > 1 }
}

extension RetryPolicy {
    private static let idempotentMethods: Set<HTTPMethod> = [.get, .head, .put, .delete, .options]
    private static let retriedStatuses: Set<Int> = [408, 429, 500, 502, 503, 504]
    static let retriedTransportCodes: Set<URLError.Code> = [
        .networkConnectionLost, .notConnectedToInternet, .cannotConnectToHost, .timedOut, .dnsLookupFailed,
        .cannotFindHost,
    ]

    /// Seconds to wait before sending again after `attempt` (1 for the first) failed with `error`, or
    /// `nil` for no retry; `now` is the layer's clock's date, which a `Retry-After` date is counted from.
    func delay(afterAttempt attempt: Int, of method: HTTPMethod, failingWith error: NetworkError, now: Date)
        -> TimeInterval?
    {
        guard attempt < maximumAttempts,
            retriesNonIdempotentRequests || Self.idempotentMethods.contains(method)
        else { return nil }
        switch error {
        case .timedOut:
            break
        case .transport(let urlError) where Self.retriedTransportCodes.contains(urlError.code):
            break
        case .unacceptableStatusCode(let status, _, let headers) where Self.retriedStatuses.contains(status):
            if let retryAfter = Self.retryAfter(in: headers.fields, now: now) {
                return retryAfter <= maximumDelay && retryAfter.isFinite ? retryAfter : nil
            }
        default:
            return nil
        }
        // An endless (or NaN) wait is no retry.
        return Backoff(initialDelay: initialDelay, maximumDelay: maximumDelay, jitter: .full)
            .delay(afterFailures: attempt)
    }

    /// The wait a `Retry-After` field asks for: delta-seconds, or an HTTP date (RFC 9110), never negative.
    static func retryAfter(in headers: [String: String], now: Date) -> TimeInterval? {
        guard let value = ResponseHeaders(headers)["Retry-After"]?.trimmingCharacters(in: .whitespaces) else {
            return nil
        }
        // delta-seconds is digits only; beyond Int's range it is still a (very long) wait.
        if !value.isEmpty, value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
            return TimeInterval(value)
        }
        return HTTPDate.parse(value).map { max(0, $0.timeIntervalSince(now)) }
    }
}
