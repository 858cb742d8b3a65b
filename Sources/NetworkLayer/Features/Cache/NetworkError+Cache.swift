import Foundation

extension NetworkError {
    /// The error of a request whose ``CachePolicy/returnCacheDataDontLoad`` found nothing stored:
    /// ``transport(_:)`` with `URLError(.resourceUnavailable)`, as URLSession reports it for the same policy.
    public static var notCached: NetworkError { .transport(URLError(.resourceUnavailable)) }

    /// Whether this is ``notCached``: the cache held no reply and the policy allowed no network.
    public var isNotCached: Bool {
        if case .transport(let error) = self { return error.code == .resourceUnavailable }
        return false
    }
}
