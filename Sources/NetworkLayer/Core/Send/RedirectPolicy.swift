import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which redirects the layer follows, and what goes along when it does.
///
/// By default a redirect is not followed when it would downgrade `https` to `http` or keep a body
/// (307, 308, 301/302 of PUT, PATCH, DELETE: FoundationNetworking would re-send it with an empty body),
/// and only `Accept` (plus a resumed download's `Range`, `If-Range`, `Accept-Encoding`) goes to another
/// origin. A redirect not followed reaches the error handler as
/// ``NetworkError/unacceptableStatusCode(_:body:headers:)`` with the 3xx and its `Location`, so the
/// caller can re-send. The full table and the origin rules: <doc:MakingRequests#Redirects>.
public struct RedirectPolicy: Sendable, Hashable {
    /// Whether a redirect from `https` to `http` is followed. Default `false`: the redirected request,
    /// headers included, would travel unencrypted.
    public var allowsInsecureRedirects: Bool
    /// Whether the caller's own headers go along to another origin. Default `false`. Credentials
    /// (`Authorization`, `Proxy-Authorization`, `Cookie`, `X-Api-Key`, `X-Auth-Token`,
    /// ``credentialHeaders``) never do.
    public var forwardsHeadersAcrossOrigins: Bool
    /// More header names (any case) that carry credentials and never go to another origin; they matter
    /// only with ``forwardsHeadersAcrossOrigins``.
    public var credentialHeaders: Set<String>
    /// Whether redirects are followed at all. Default `true`; with `false` every 3xx is the reply, which
    /// fails as ``NetworkError/unacceptableStatusCode(_:body:headers:)`` unless the request accepts the
    /// status (``NetworkRequest/acceptableStatusCodes``). See ``never``.
    public var followsRedirects: Bool

    /// Creates a policy; the defaults are those of ``default``.
    ///
    /// - Parameters:
    ///   - allowsInsecureRedirects: Whether a redirect from `https` to `http` is followed.
    ///   - forwardsHeadersAcrossOrigins: Whether the caller's headers, credentials excepted, go along to
    ///     another origin.
    ///   - credentialHeaders: More header names that carry credentials, never forwarded.
    ///   - followsRedirects: Whether redirects are followed at all.
    public init(
        allowsInsecureRedirects: Bool = false, forwardsHeadersAcrossOrigins: Bool = false,
        credentialHeaders: Set<String> = [], followsRedirects: Bool = true
    ) {
        self.followsRedirects = followsRedirects
        self.allowsInsecureRedirects = allowsInsecureRedirects
        self.forwardsHeadersAcrossOrigins = forwardsHeadersAcrossOrigins
        self.credentialHeaders = Set(credentialHeaders.map { $0.lowercased() })
    }

    /// No redirects from `https` to `http`, and only `Accept` (with a resumed download's `Range`, `If-Range` and
    /// `Accept-Encoding`) goes along to another origin.
    public static let `default` = RedirectPolicy()

    /// No redirect is followed: the 3xx itself is the reply. For one request, set it as that request's
    /// ``NetworkRequest/redirectPolicy``.
    public static let never = RedirectPolicy(followsRedirects: false)

    private static let neutralHeaders: Set<String> = ["accept", "range", "if-range", "accept-encoding"]

    /// The request to follow `response` with, or `nil` to stop and deliver the redirect itself.
    ///
    /// - Parameters:
    ///   - response: The 3xx reply.
    ///   - proposed: The request FoundationNetworking would send next, with every header of the original.
    ///   - original: The request the caller made: its body and origin are what the caller meant.
    ///   - facts: What the session does with a redirected body (``PlatformFacts/losesRedirectedBodies``).
    func request(
        following response: HTTPURLResponse, to proposed: URLRequest, from original: URLRequest?,
        facts: PlatformFacts = .current
    ) -> URLRequest? {
        guard followsRedirects, let target = proposed.url, Origin(target) != nil else { return nil }
        if refusesDowngrade(to: target, after: [response.url, original?.url]) { return nil }
        if facts.losesRedirectedBodies && Self.hasBody(original)
            && !Self.becomesBodilessGet(response, proposed, original)
        {
            return nil
        }
        let origin = (original?.url ?? response.url).flatMap(Origin.init)
        return origin?.contains(target) == true ? proposed : withoutCallerHeaders(proposed)
    }

    /// Whether going to `target` after any of `sources` was `https` would downgrade to plain `http`, which
    /// the policy refuses unless it ``allowsInsecureRedirects``. Redirects and every hop of a composed call
    /// (a URL a server named) ask it.
    func refusesDowngrade(to target: URL, after sources: [URL?]) -> Bool {
        guard !allowsInsecureRedirects, target.scheme?.lowercased() == "http" else { return false }
        return sources.contains { $0?.scheme?.lowercased() == "https" }
    }

    /// `url` without user-info, for a request to another origin: a scheme-relative `Location` keeps the
    /// first URL's `alice:secret@`, which libcurl would send on as `Authorization: Basic`.
    static func withoutUserInfo(_ url: URL) -> URL {
        guard url.user != nil || url.password != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        else { return url }
        components.percentEncodedUser = nil
        components.percentEncodedPassword = nil
        return components.url ?? url
    }

    /// Also drops user-info from the URL (see ``withoutUserInfo(_:)``).
    private func withoutCallerHeaders(_ proposed: URLRequest) -> URLRequest {
        var request = proposed
        let credentials = CredentialHeaderNames(adding: credentialHeaders)
        for name in (proposed.allHTTPHeaderFields ?? [:]).keys {
            let lowercased = name.lowercased()
            // Why safe anywhere: Accept says only what the caller can read, Range and If-Range only which
            // bytes a resumed download lacks.
            if Self.neutralHeaders.contains(lowercased) { continue }
            if !forwardsHeadersAcrossOrigins || credentials.contains(lowercased) {
                request.setValue(nil, forHTTPHeaderField: name)
            }
        }
        request.url = proposed.url.map(Self.withoutUserInfo)
        return request
    }

    private static func hasBody(_ request: URLRequest?) -> Bool {
        !(request?.httpBody?.isEmpty ?? true) || request?.httpBodyStream != nil
    }

    /// FoundationNetworking's rule for when a redirect drops the body (303; 301/302 of POST), confirmed on
    /// the request it proposes.
    private static func becomesBodilessGet(
        _ response: HTTPURLResponse, _ proposed: URLRequest, _ original: URLRequest?
    ) -> Bool {
        let status = response.statusCode
        let dropsBody =
            status == 303 || ((301...302).contains(status) && original?.httpMethod?.uppercased() == "POST")
        return dropsBody && proposed.httpMethod?.uppercased() == "GET" && !hasBody(proposed)
    }
}
