/// Why the layer's ``ResponseCache`` did what ``CacheStatus`` says with a request (see
/// ``RequestMetrics/cacheReason``). Its raw value is a stable name for logs and tools; its description, a
/// phrase for people.
public enum CacheReason: String, Sendable, Hashable, CustomStringConvertible {
    /// Nothing was stored for the request: it went to the network, or failed when only the cache could
    /// answer (``CachePolicy/returnCacheDataDontLoad``, `only-if-cached`).
    case notStored
    /// The stored reply was fresh: served without a round trip.
    case fresh
    /// The request takes a stored reply however old: its ``CachePolicy`` (``CachePolicy/returnCacheDataElseLoad``,
    /// ``CachePolicy/returnCacheDataDontLoad``) or its own `only-if-cached` or `max-stale`.
    case policyAcceptsStored
    /// The stored reply was stale within its `stale-while-revalidate` window: served at once, and refreshed
    /// in the background.
    case staleWhileRevalidate
    /// The stored reply was stale: the server was asked (a `304` revalidates it, another reply replaces it).
    case stale
    /// The request's ``CachePolicy`` asks the server whatever is stored (``CachePolicy/reloadIgnoringCache``,
    /// ``CachePolicy/revalidate``).
    case policyReloads
    /// The request carries its own validators (`If-None-Match`, `If-Modified-Since`): the server's reply,
    /// a `304` included, is the caller's.
    case conditionalRequest
    /// The cache answers only a `GET` without a body or `Range`: the request went as it was (a success of
    /// an unsafe method removes what was stored for its URL).
    case notCacheable
    /// The account the request is for changed while it ran (a sign-out, another user): its partition was
    /// neither read nor written.
    case accountChanged
    /// The network failed (an error or a `5xx`) and the stored reply stands in for it, as the reply's
    /// `stale-if-error` or the request's ``CachePolicy`` allows.
    case networkFailure
    /// The policies failed offline (a token refresh that couldn't reach its server) and the account's
    /// stored reply stands in (see <doc:CachingAndOffline>).
    case offline

    /// A short phrase, as a log or an inspector shows it.
    public var description: String {
        switch self {
        case .notStored: "nothing stored"
        case .fresh: "fresh"
        case .policyAcceptsStored: "the request accepts a stored reply"
        case .staleWhileRevalidate: "stale, within stale-while-revalidate"
        case .stale: "stale"
        case .policyReloads: "the request's policy reloads"
        case .conditionalRequest: "the request is conditional"
        case .notCacheable: "not cacheable"
        case .accountChanged: "the account changed"
        case .networkFailure: "the network failed"
        case .offline: "offline"
        }
    }
}
