import Foundation

/// What of a composed call's own request goes with each of its steps (``ComposedCall``), wherever the URL
/// came from (the caller, or a server that named it): one rule for every hop, as redirects have theirs
/// (``RedirectPolicy``).
///
/// - The headers the step itself sets (a protocol's `Tus-Resumable`, `Upload-Offset`, `Content-Type`, …)
///   always go.
/// - The caller's headers go to the origin of the request that created the call; to another origin, all
///   but those on the credential list (``CredentialHeaderNames``: the layer's, plus the request's own
///   ``RedirectPolicy/credentialHeaders``).
/// - The caller's own interceptors (``NetworkRequest/interceptors``) run only on steps to that origin: what
///   they add can't be told from what the caller meant for its server. The layer's interceptors run on
///   every step, as on every request: ``BearerTokenAuthenticator`` adds its token to the origins it names.
/// - A URL on plain `http` named after an `https` request is refused, as a redirect is (unless the
///   redirect policy ``RedirectPolicy/allowsInsecureRedirects``), and user-info in a URL on another origin
///   is dropped.
struct OriginRule: Sendable {
    /// Where one step goes.
    enum Hop {
        /// The origin of the request that created the call.
        case sameOrigin
        /// Another origin, at this URL (user-info dropped).
        case otherOrigin(URL)
        /// Nowhere: nothing may be sent there.
        case refused(NetworkError)
    }

    /// The URL of the request that created the call; `nil` when it has none (then no step is on its
    /// origin).
    let source: URL?
    /// The credential header names, the request's own added.
    let credentials: CredentialHeaderNames
    let redirectPolicy: RedirectPolicy

    /// The rule for the steps of a call created by a request to `source`.
    ///
    /// - Parameters:
    ///   - source: The resolved URL of the caller's request.
    ///   - credentials: The layer's credential header names.
    ///   - redirectPolicy: The request's redirect policy, else the layer's.
    init(source: URL?, credentials: CredentialHeaderNames, redirectPolicy: RedirectPolicy) {
        self.source = source
        self.credentials = credentials.adding(redirectPolicy.credentialHeaders)
        self.redirectPolicy = redirectPolicy
    }

    /// Where a step to `url` goes.
    func hop(to url: URL) -> Hop {
        if redirectPolicy.refusesDowngrade(to: url, after: [source]) {
            return .refused(
                .invalidRequest(
                    "A server named \(Redaction.quoted(Redaction.url(url.absoluteString))) on plain http "
                        + "after https: nothing was sent to it."))
        }
        if let origin = source.flatMap(Origin.init), origin.contains(url) { return .sameOrigin }
        return .otherOrigin(RedirectPolicy.withoutUserInfo(url))
    }

    /// The caller's `headers` a step that goes as `hop` carries; `nil`: a URL with no origin known.
    func callerHeaders(_ headers: [String: String], on hop: Hop?) -> [String: String] {
        switch hop {
        case .sameOrigin?: headers
        case .otherOrigin?, nil: credentials.removingCredentials(from: headers)
        case .refused?: [:]
        }
    }
}
