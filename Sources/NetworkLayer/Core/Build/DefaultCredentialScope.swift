import Foundation

/// The one origin a layer's default credential headers go to: the base URL's or, without one, the first
/// request's (as ``BearerTokenAuthenticator`` does; a call made of several, its own request's). Why: a default `Authorization` is for
/// the layer's API, not a CDN's or a partner's absolute URL.
final class DefaultCredentialScope: Sendable {
    /// Set by `init` from the base URL, or by the first request of a layer without one.
    private let origin: Locked<Origin?>

    init(baseURL: URL?) {
        origin = Locked(baseURL.flatMap(Origin.init))
    }

    /// Whether the default credentials go to `url`; the first asked makes its origin the one, unless there
    /// is one.
    func allows(_ url: URL) -> Bool {
        guard let requested = Origin(url) else { return false }
        return origin.withLock { origin in
            if origin == nil { origin = requested }
            return origin == requested
        }
    }
}
