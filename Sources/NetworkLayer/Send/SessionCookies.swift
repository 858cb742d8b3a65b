import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cookies URLSession adds to a request from its session's storage when it sends it: a credential
/// the request itself doesn't show. The cache keys its entries by it (see ``Fingerprint``), so a reply
/// stored for one signed-in user is never served to the next.
final class SessionCookies: @unchecked Sendable {
    // HTTPCookieStorage serializes its own state, but not every SDK declares it `Sendable`.
    private let storage: HTTPCookieStorage

    /// The cookies a session made with `configuration` sends; `nil` when it sends none.
    init?(configuration: URLSessionConfiguration) {
        guard configuration.httpShouldSetCookies, let storage = configuration.httpCookieStorage else {
            return nil
        }
        self.storage = storage
    }

    /// The `Cookie` field the session sends with `request`, if it sends one. A request's own
    /// `httpShouldHandleCookies` is not consulted: FoundationNetworking ignores it, and a cookie counted
    /// that isn't sent only costs a cache miss.
    func header(for request: URLRequest) -> String? {
        guard let url = request.url, let cookies = storage.cookies(for: url), !cookies.isEmpty else {
            return nil
        }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }
}
