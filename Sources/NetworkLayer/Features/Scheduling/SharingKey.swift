import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The identity of an attempt for sharing, as it goes on the wire: method, URL without its fragment, every
/// header field after every interceptor adapted it (but ``RequestScheduling/headerFieldsIgnoredForSharing``),
/// the `Cookie` field the session adds from its storage, the timeout; and what else decides what its reply
/// becomes below sharing: the cache partition (`account`) and `shaping`. Whoever added a credential (the
/// request, an interceptor, the authenticator, the cookie store), two attempts that would carry different
/// ones differ. Hashed, never formatted: it is made for every attempt that may share.
struct SharingKey: Hashable, Sendable {
    /// Every part hashed once, when the key is made. Why: a flight looks its key up about six times (join,
    /// start, land), and hashing the fields each time was a measurable share of a small GET. First, so that
    /// two keys that differ compare unequal at once.
    private let digest: Int
    private let parts: Parts

    private struct Parts: Hashable {
        let method: String
        let url: String
        let fields: [String: String]
        /// Kept apart from `fields`: the same cookie given by the request and by the storage don't share, at
        /// the cost of a rare miss, rather than a merge on every attempt.
        let sessionCookie: String?
        /// Whether the session adds its cookies at all: on Apple platforms an attempt may decline them.
        let handlesCookies: Bool
        let timeout: TimeInterval
        /// The cache partition the stage below reads and writes, read before the interceptors ran.
        let account: String?
        let shaping: Shaping
    }

    /// What decides what a reply becomes below sharing, besides the attempt itself: not the retry policy nor
    /// what is acceptable, which each caller's policies and call apply above.
    struct Shaping: Hashable, Sendable {
        let sizeLimit: Int
        let redirectPolicy: RedirectPolicy
        let cachePolicy: CachePolicy
        /// Whether the shared request waits out its origin's pause, and counts against its budget.
        let waitsForRateLimits: Bool
        let countsAgainstBudget: Bool
    }

    /// - Parameters:
    ///   - request: The attempt, as the interceptors left it.
    ///   - sessionCookie: The `Cookie` field the transport adds for it (``AttemptTransport``).
    init(_ request: URLRequest, sessionCookie: String?, account: String?, shaping: Shaping) {
        let ignored = RequestScheduling.headerFieldsIgnoredForSharing
        var fields: [String: String] = [:]
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            let name = name.lowercased()
            if !ignored.contains(name) { fields[name] = value }
        }
        parts = Parts(
            // Without its fragment, as the cache keys it.
            method: request.httpMethod ?? "GET", url: request.url.map(CacheKey.normalized) ?? "",
            fields: fields, sessionCookie: sessionCookie, handlesCookies: request.httpShouldHandleCookies,
            timeout: request.timeoutInterval, account: account, shaping: shaping)
        digest = parts.hashValue
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(digest)
    }

    /// A `GET` or `HEAD` without a body.
    static func mayShare(_ request: URLRequest) -> Bool {
        ["GET", "HEAD"].contains(request.httpMethod ?? "GET") && request.httpBody == nil
            && request.httpBodyStream == nil
    }
}
