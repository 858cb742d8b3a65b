import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the transport does when a server redirects a request.
///
/// - 301, 302 and 303 are followed as URLSession follows them: the request becomes a GET with no body.
/// - 307 and 308 are followed only for requests without a body. FoundationNetworking re-sends a 307/308
///   with its method but an empty body (measured; setting the body again does not help), so a request
///   with a body is not followed: the caller gets ``NetworkError/unacceptableStatusCode(_:body:headers:)``
///   with the `Location` header, instead of success for a request whose body was silently lost.
/// - A redirect to another origin (scheme, host or port) loses `Authorization`, `Proxy-Authorization` and
///   `Cookie`, so a server cannot send the caller's credentials elsewhere.
struct RedirectPolicy: Sendable {
    static let `default` = RedirectPolicy()

    private static let credentialHeaders = ["Authorization", "Proxy-Authorization", "Cookie"]

    /// The request to follow `response` with, or `nil` to stop and deliver the redirect itself.
    func request(
        following response: HTTPURLResponse, to proposed: URLRequest, from original: URLRequest?
    ) -> URLRequest? {
        let hasBody = !(original?.httpBody?.isEmpty ?? true)
        if hasBody && (response.statusCode == 307 || response.statusCode == 308) {
            return nil
        }
        guard let from = original?.url ?? response.url, let to = proposed.url, !Self.sameOrigin(from, to) else {
            return proposed
        }
        var request = proposed
        for name in Self.credentialHeaders {
            request.setValue(nil, forHTTPHeaderField: name)
        }
        return request
    }

    private static func sameOrigin(_ first: URL, _ second: URL) -> Bool {
        first.scheme?.lowercased() == second.scheme?.lowercased()
            && first.host?.lowercased() == second.host?.lowercased()
            && effectivePort(first) == effectivePort(second)
    }

    private static func effectivePort(_ url: URL) -> Int? {
        url.port
            ?? (url.scheme?.lowercased() == "https" ? 443 : url.scheme?.lowercased() == "http" ? 80 : nil)
    }
}
