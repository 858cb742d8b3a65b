import Foundation

extension NetworkLayer {
    /// The one list for `request`: the layer's names with those of the request's own
    /// ``RedirectPolicy/credentialHeaders``. Redaction, forwarding and storage all ask it.
    package func credentialHeaders<Value>(for request: NetworkRequest<Value>) -> CredentialHeaderNames {
        request.redirectPolicy.map { credentialHeaders.adding($0.credentialHeaders) } ?? credentialHeaders
    }

    /// The redirect policy `request` follows: its own, else the layer's. A request's own policy carries
    /// the request's whole list (``credentialHeaders(for:)``): one that forwards headers across origins
    /// must not forward a name the layer lists.
    func redirectPolicy<Value>(for request: NetworkRequest<Value>) -> RedirectPolicy {
        guard var policy = request.redirectPolicy else { return redirectPolicy }
        policy.credentialHeaders = credentialHeaders(for: request).extra
        return policy
    }

    /// Makes `url`'s origin the one the layer's credentials without an origin go to, unless they have one:
    /// the default credential headers' (``DefaultCredentialScope``) and each ``BearerTokenAuthenticator``
    /// made without `origins:`, on a layer without a base URL. A composed call does it for its own request
    /// before any step: else a step to a URL a server named (a stored upload's `HEAD` after a relaunch, the
    /// layer's first request) would make that origin theirs for the life of the process.
    func adoptCredentialOrigin(of url: URL) {
        builder.adoptCredentialOrigin(of: url)
        for authenticator in authenticators { authenticator.adoptOrigin(of: url) }
    }

    /// The layer's token authenticators, among its interceptors.
    var authenticators: [BearerTokenAuthenticator] {
        interceptors.compactMap { $0 as? BearerTokenAuthenticator }
    }
}
