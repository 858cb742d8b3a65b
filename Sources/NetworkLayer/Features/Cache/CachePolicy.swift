import Foundation

/// How a request uses the layer's ``ResponseCache``. Only bodiless `GET` requests are looked up or
/// stored; downloads, uploads and `Range` requests always go to the network.
public enum CachePolicy: Sendable, Equatable, Hashable {
    /// RFC 9111 private caching: fresh replies served without a round trip, stale ones revalidated (within
    /// a reply's `stale-while-revalidate` window, served at once and revalidated in the background). The
    /// default.
    case useProtocolCachePolicy
    /// Always load from the network and leave the cache as it is for this request.
    case reloadIgnoringCache
    /// Always ask the server with the stored validators, so an unchanged reply costs a `304`.
    case revalidate
    /// Serve a stored reply however old it is (``CacheStatus/staleHit`` when stale); load from the network
    /// only when none is stored.
    case returnCacheDataElseLoad
    /// Only the cache: a stored reply however old, or ``NetworkError/notCached``. For offline screens. A
    /// request's own `Cache-Control: only-if-cached` has the same effect.
    case returnCacheDataDontLoad
    /// RFC 9111, plus the stored reply, however stale, when the network fails or the server answers 5xx
    /// (``CacheStatus/stale(_:)`` carries the error).
    case useCacheOnFailure
}
