import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What of a composed call's own request goes with each of its steps (``ComposedCall``), wherever the URL
/// came from (the caller, or a server that named it): one rule for every hop, as redirects have theirs
/// (``RedirectPolicy``).
///
/// - The headers the step itself sets (a protocol's `Tus-Resumable`, `Upload-Offset`, `Content-Type`, …;
///   none is on the credential list) always go.
/// - Headers on the credential list (``CredentialHeaderNames``: the layer's, plus the request's own
///   ``RedirectPolicy/credentialHeaders``) go only to the origin of the request that created the call,
///   whoever set them: the caller, or the layer's interceptors. Another origin's steps end with
///   ``credentialFilter``, after every interceptor ran. One exception: the `Authorization` of a layer's
///   ``BearerTokenAuthenticator`` whose origins cover the step's URL, which its `origins:` sent there.
/// - The caller's own interceptors (``NetworkRequest/interceptors``) run only on steps to that origin: what
///   they add can't be told from what the caller meant for its server. The layer's interceptors run on
///   every step, as on every request.
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
    /// The credential header names, the request's own included (``NetworkLayer/credentialHeaders(for:)``).
    let credentials: CredentialHeaderNames
    /// The request's redirect policy (``NetworkLayer/redirectPolicy(for:)``).
    let redirectPolicy: RedirectPolicy
    /// The layer's token authenticators, whose tokens go where their origins say.
    var authenticators: [BearerTokenAuthenticator] = []

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

    /// The last interceptor of a step to another origin: it takes off every header on the credential list,
    /// but the token of an authenticator whose origins cover the URL. Why last: the layer's interceptors
    /// run on every step, after the step's headers are set, and may add what the list names.
    var credentialFilter: some RequestInterceptor {
        CredentialFilter(credentials: credentials, authenticators: authenticators)
    }

    private struct CredentialFilter: RequestInterceptor {
        let credentials: CredentialHeaderNames
        let authenticators: [BearerTokenAuthenticator]

        func adapt(
            _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
        ) {
            var request = request
            let keepsToken = request.url.map { url in authenticators.contains { $0.sendsToken(to: url) } }
            for name in credentials.credentials(in: request.allHTTPHeaderFields ?? [:])
            where keepsToken != true || name.caseInsensitiveCompare("Authorization") != .orderedSame {
                request.setValue(nil, forHTTPHeaderField: name)
            }
            completion(.success(request))
        }
    }
}
