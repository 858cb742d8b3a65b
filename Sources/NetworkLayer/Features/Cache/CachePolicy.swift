import Foundation

/// How a request uses the layer's ``ResponseCache``.
///
/// Only `GET` requests without a body are looked up or stored; downloads, uploads and requests with a
/// `Range` header always go to the network.
public enum CachePolicy: Sendable, Equatable, Hashable {
    /// HTTP caching as RFC 9111 describes it for a private cache: fresh replies are served without a
    /// round trip, stale ones are revalidated. The default.
    case useProtocolCachePolicy
    /// Always load from the network and leave the cache as it is for this request.
    case reloadIgnoringCache
    /// Always ask the server, sending the stored reply's validators, so that an unchanged reply costs
    /// a `304 Not Modified`.
    case revalidate
    /// Serve a stored reply however old it is; load from the network only when none is stored.
    case returnCacheDataElseLoad
    /// Only the cache: a stored reply however old, or ``NetworkError/notCached``. For offline screens.
    case returnCacheDataDontLoad
    /// RFC 9111, and when the network fails or the server answers with a 5xx status, the stored reply,
    /// however stale, with ``CacheStatus/stale(_:)`` carrying the error.
    case useCacheOnFailure
}
