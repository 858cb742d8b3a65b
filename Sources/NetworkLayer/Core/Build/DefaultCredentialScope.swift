import Foundation

/// The one origin a layer's default credential headers go to, as a redirect would take them: the base
/// URL's or, for a layer without one, the origin of the first request that would carry them (the rule
/// ``BearerTokenAuthenticator`` follows for its token). A default `Authorization` is meant for the API
/// the layer was made for, not for every absolute URL a caller passes, such as a CDN's or a partner's.
final class DefaultCredentialScope: Sendable {
    /// Set once: by `init` from the base URL, or by the first request of a layer without one.
    private let origin: Locked<Origin?>

    init(baseURL: URL?) {
        origin = Locked(baseURL.flatMap(Origin.init))
    }

    /// Whether the default credentials go to `url`.
    func allows(_ url: URL) -> Bool {
        guard let requested = Origin(url) else { return false }
        return origin.withLock { origin in
            if origin == nil { origin = requested }
            return origin == requested
        }
    }
}
