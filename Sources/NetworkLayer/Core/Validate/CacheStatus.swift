import Foundation

/// Where a reply came from: the network, or the layer's ``ResponseCache``. Two ``stale(_:)`` statuses
/// are equal whatever their errors (``NetworkError`` isn't `Equatable`): compare ``staleError``.
public enum CacheStatus: Sendable, Equatable {
    /// The reply came from the network, not from the cache.
    case network
    /// The stored reply was fresh and was served without a round trip.
    case hit
    /// The stored reply was served without a round trip although stale, as the request allowed:
    /// ``CachePolicy/returnCacheDataElseLoad``, ``CachePolicy/returnCacheDataDontLoad``, `only-if-cached` or
    /// `max-stale`. No error made it stale: ``staleError`` is `nil`.
    case staleHit
    /// The stored reply was served at once although stale, within its `stale-while-revalidate` window
    /// (RFC 5861); the layer refreshes it with a conditional request in the background, and a later
    /// request gets the refreshed reply.
    case staleWhileRevalidating
    /// The server answered `304 Not Modified` and the stored reply was served, its headers updated.
    case revalidated
    /// The stored reply was served although stale, because of this error (a network failure or a 5xx),
    /// or offline by the request's ``CachePolicy``.
    case stale(NetworkError)

    /// Whether the reply was served from the cache: any status but ``network``.
    public var isFromCache: Bool { self != .network }

    /// The error that made the cache serve a stale reply; `nil` unless ``stale(_:)``.
    public var staleError: NetworkError? {
        if case .stale(let error) = self { return error }
        return nil
    }

    /// Compares the cases only: two ``stale(_:)`` statuses are equal whatever their errors.
    ///
    /// - Parameters:
    ///   - lhs: A status.
    ///   - rhs: Another status.
    public static func == (lhs: CacheStatus, rhs: CacheStatus) -> Bool {
        switch (lhs, rhs) {
        case (.network, .network), (.hit, .hit), (.staleHit, .staleHit),
            (.staleWhileRevalidating, .staleWhileRevalidating), (.revalidated, .revalidated),
            (.stale, .stale):
            return true
        case (.network, _), (.hit, _), (.staleHit, _), (.staleWhileRevalidating, _), (.revalidated, _),
            (.stale, _):
            return false
        }
    }
}

extension CacheStatus: CustomStringConvertible {
    /// `network`, `cache hit`, `stale cache hit`, `stale while revalidating`, `revalidated`, or `stale` with
    /// the error's message, as logs show it.
    public var description: String {
        switch self {
        case .network: return "network"
        case .hit: return "cache hit"
        case .staleHit: return "stale cache hit"
        case .staleWhileRevalidating: return "stale while revalidating"
        case .revalidated: return "revalidated"
        case .stale(let error): return "stale (\(error.message))"
        }
    }
}
