import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which redirects the layer follows, and what goes along when it does.
///
/// A redirect that is not followed reaches the error handler as
/// ``NetworkError/unacceptableStatusCode(_:body:headers:)`` with the 3xx status and its `Location` header
/// (FoundationNetworking drops the body of a 3xx reply, so the body is empty). The caller can then decide
/// to send the request to `Location` itself.
///
/// | redirect | ``default`` | with an option |
/// |---|---|---|
/// | `https` to `http` | not followed | followed with ``allowsInsecureRedirects`` |
/// | request with a body, 303 (any method) or 301/302 of a POST | followed as a GET without a body | – |
/// | request with a body, any other status (307, 308, 301/302 of PUT, PATCH, DELETE) | not followed | – |
/// | request without a body | followed; 303 becomes a GET, other statuses keep the method | – |
/// | to another origin | only `Accept` (and `Range`, `If-Range`, `Accept-Encoding`) goes along | with ``forwardsHeadersAcrossOrigins``, every header but the credentials (`Authorization`, `Proxy-Authorization`, `Cookie`, `X-Api-Key`, `X-Auth-Token` and ``credentialHeaders``) |
/// | within the origin | followed unchanged | – |
///
/// A request with a body is followed only when the redirect turns it into a GET without a body, because
/// FoundationNetworking re-sends any other redirected request with its method but an empty body
/// (measured: 307 and 308 for every method, 301 and 302 for PUT, PATCH and DELETE, all answered by the
/// target as if the body had been sent). An origin is a scheme, host and port, with 80 and 443 standing
/// for a missing port of `http` and `https`, scheme and host compared without regard to case, and
/// `localhost`, `127.0.0.1` and `127.0.0.1.` three different hosts; a target that is not `http` or
/// `https` is not followed. Across origins the headers a caller set (the layer's
/// default headers and a request's own: `Authorization`, `Cookie`, `X-Api-Key`, anything) are removed,
/// since they were meant for the server the caller addressed, not for whichever one it redirects to.
public struct RedirectPolicy: Sendable, Equatable {
    /// Whether a redirect from `https` to `http` is followed. Default `false`: the redirected request,
    /// headers included, would travel unencrypted.
    public var allowsInsecureRedirects: Bool
    /// Whether the caller's own headers go along to another origin. Default `false`. Credentials
    /// (`Authorization`, `Proxy-Authorization`, `Cookie`, `X-Api-Key`, `X-Auth-Token` and
    /// ``credentialHeaders``) never do, whatever this says.
    public var forwardsHeadersAcrossOrigins: Bool
    /// More header names (any case) that carry credentials and never go to another origin, besides
    /// `Authorization`, `Proxy-Authorization`, `Cookie`, `X-Api-Key` and `X-Auth-Token`. Matters only
    /// with ``forwardsHeadersAcrossOrigins``: without it no header of the caller's goes along anyway.
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

    /// Headers that go along to any origin (lowercased).
    private static let neutralHeaders: Set<String> = ["accept", "range", "if-range", "accept-encoding"]

    /// The request to follow `response` with, or `nil` to stop and deliver the redirect itself.
    ///
    /// - Parameters:
    ///   - response: The 3xx reply.
    ///   - proposed: The request FoundationNetworking would send next. It carries every header of the
    ///     request it redirects.
    ///   - original: The request the caller made (`URLSessionTask.originalRequest`): its body and origin
    ///     are what the caller meant.
    func request(
        following response: HTTPURLResponse, to proposed: URLRequest, from original: URLRequest?
    ) -> URLRequest? {
        guard followsRedirects, let target = proposed.url, Origin(target) != nil else { return nil }
        if !allowsInsecureRedirects && Self.isDowngrade(to: target, from: [response.url, original?.url]) {
            return nil
        }
        if PlatformSession.losesRedirectedBodies && Self.hasBody(original)
            && !Self.becomesBodilessGet(response, proposed, original)
        {
            return nil
        }
        guard let origin = (original?.url ?? response.url).flatMap(Origin.init), origin.contains(target)
        else {
            return withoutCallerHeaders(proposed)
        }
        return proposed
    }

    /// `proposed` for another origin: without the caller's headers, and without user-info in its URL.
    /// A scheme-relative `Location` (`//other/x`) keeps the first URL's `alice:secret@`, which libcurl
    /// would send on as `Authorization: Basic`.
    private func withoutCallerHeaders(_ proposed: URLRequest) -> URLRequest {
        var request = proposed
        for name in (proposed.allHTTPHeaderFields ?? [:]).keys where !keepsAcrossOrigins(name) {
            request.setValue(nil, forHTTPHeaderField: name)
        }
        if let url = proposed.url, url.user != nil || url.password != nil,
            var components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        {
            components.percentEncodedUser = nil
            components.percentEncodedPassword = nil
            request.url = components.url ?? url
        }
        return request
    }

    /// Whether the request carries a body: bytes, or a stream (an upload).
    private static func hasBody(_ request: URLRequest?) -> Bool {
        !(request?.httpBody?.isEmpty ?? true) || request?.httpBodyStream != nil
    }

    /// FoundationNetworking's rule for when a redirect drops the body (303 for any method, 301 and 302
    /// for POST), confirmed on the request it proposes: any other redirect of a request with a body goes
    /// out with the method and an empty body.
    private static func becomesBodilessGet(
        _ response: HTTPURLResponse, _ proposed: URLRequest, _ original: URLRequest?
    ) -> Bool {
        let status = response.statusCode
        let dropsBody =
            status == 303 || ((301...302).contains(status) && original?.httpMethod?.uppercased() == "POST")
        return dropsBody && proposed.httpMethod?.uppercased() == "GET" && !hasBody(proposed)
    }

    private func keepsAcrossOrigins(_ name: String) -> Bool {
        let name = name.lowercased()
        // Accept is the layer's own and says only what the caller can read, and a resumed download's
        // Range and If-Range only which bytes it lacks (If-Range makes a server holding another version
        // send all of it): safe to send anywhere.
        return Self.neutralHeaders.contains(name)
            || (forwardsHeadersAcrossOrigins
                && !Credentials.isCredentialHeader(name, orOneOf: credentialHeaders))
    }

    /// Whether `target` is plain `http` while any of the URLs the request came through was `https`.
    private static func isDowngrade(to target: URL, from sources: [URL?]) -> Bool {
        target.scheme?.lowercased() == "http" && sources.contains { $0?.scheme?.lowercased() == "https" }
    }
}
