import Foundation

/// What the cache does with one request, decided purely from it, what is stored and the time, so each
/// policy reads as a table (`CacheStrategyTests`) and the stage keeps only the I/O.
enum CacheStrategy: Equatable {
    /// The stored reply answers; nothing is sent.
    case serve(CachedResponse)
    /// The stale stored reply answers at once, within its `stale-while-revalidate` window; a revalidation
    /// goes out in the background.
    case serveWhileRevalidating(CachedResponse)
    /// Only the cache may answer, and it has nothing: the request fails without being sent.
    case unsatisfiable
    /// Send, with `conditions` (the validators of `stored`) when a 304 can revalidate it; `stored` is the
    /// fallback on failure.
    case network(conditions: [String: String], stored: CachedResponse?)

    /// The decision for a request with `headers` (as the server receives them) under `policy`; a request's
    /// own `only-if-cached` (RFC 9111 §5.2.1.7) is ``CachePolicy/returnCacheDataDontLoad``, whatever the policy.
    /// `revalidatesInBackground`: whether the caller can revalidate in the background (RFC 5861).
    static func decide(
        policy: CachePolicy, stored: CachedResponse?, request headers: HeaderFields, now: Date,
        revalidatesInBackground: Bool = false
    ) -> CacheStrategy {
        let policy = CacheControl(headers["Cache-Control"]).onlyIfCached ? .returnCacheDataDontLoad : policy
        guard let stored else {
            return policy == .returnCacheDataDontLoad
                ? .unsatisfiable : .network(conditions: [:], stored: nil)
        }
        let callerConditional = CacheRules.isConditional(headers)
        switch policy {
        case .returnCacheDataElseLoad, .returnCacheDataDontLoad:
            return .serve(stored)
        case .useProtocolCachePolicy, .useCacheOnFailure:
            if !callerConditional, CacheRules.isFresh(stored, request: headers, now: now) {
                return .serve(stored)
            }
            if !callerConditional, revalidatesInBackground,
                CacheRules.canServeWhileRevalidating(stored, request: headers, now: now)
            {
                return .serveWhileRevalidating(stored)
            }
        case .reloadIgnoringCache, .revalidate: break
        }
        // Validators only for a request the caller didn't make conditional: then a 304 is ours to handle.
        let validates = !callerConditional && policy != .reloadIgnoringCache
        return .network(
            conditions: validates ? CacheRules.conditionalHeaders(for: stored) : [:], stored: stored)
    }

    /// Why the decision for a request with `headers` under `policy`, at `now`, is this one.
    func reason(policy: CachePolicy, request headers: HeaderFields, now: Date) -> CacheReason {
        switch self {
        case .serve(let stored): CacheRules.isStale(stored, now: now) ? .policyAcceptsStored : .fresh
        case .serveWhileRevalidating: .staleWhileRevalidate
        case .unsatisfiable, .network(_, stored: nil): .notStored
        case .network where policy == .reloadIgnoringCache || policy == .revalidate: .policyReloads
        case .network where CacheRules.isConditional(headers): .conditionalRequest
        case .network: .stale
        }
    }

    /// Whether `stored` may stand in for a request that failed: always under a policy that takes any
    /// stored reply, else while fresh or within its own `stale-if-error`; never for a reload.
    static func fallsBack(
        on stored: CachedResponse, policy: CachePolicy, request headers: HeaderFields, now: Date
    ) -> Bool {
        switch policy {
        case .useCacheOnFailure, .returnCacheDataElseLoad, .returnCacheDataDontLoad: true
        case .useProtocolCachePolicy:
            CacheRules.isFresh(stored, request: headers, now: now)
                || CacheRules.canServeStaleOnError(stored, now: now)
        case .revalidate: CacheRules.canServeStaleOnError(stored, now: now)
        case .reloadIgnoringCache: false
        }
    }
}
