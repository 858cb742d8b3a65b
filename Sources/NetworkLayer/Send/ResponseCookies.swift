import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Keeps the cookies replies set, where FoundationNetworking would, but only for replies that set one.
///
/// FoundationNetworking parses every header line of every reply as a possible cookie, whether or not it
/// is a `Set-Cookie` line: 6.2–6.5% of the process's CPU for small GETs at 64 in flight. So on Linux the
/// session runs with `httpCookieAcceptPolicy` `.never`, which switches that parsing off (and nothing
/// else: requests still carry the storage's cookies), and the layer stores the cookies of each reply that
/// has a `Set-Cookie` field: a final reply, a redirect, a 401 or 407. Into the same storage, by the same
/// parser, for the reply's URL, as FoundationNetworking did. (``PlatformSession/keepsCookies(of:)``)
///
/// A reply is stored on the session's delegate queue, before the transfer goes on, so a request sent
/// from its handler carries the cookie. `HTTPCookieStorage.shared` writes its file on each change: that
/// write happened on libcurl's thread before, and happens on the delegate queue now.
final class ResponseCookies: @unchecked Sendable {
    // HTTPCookieStorage serializes its own state.
    private let storage: HTTPCookieStorage

    init(storage: HTTPCookieStorage) {
        self.storage = storage
    }

    /// Stores the cookies `response` sets, if any.
    func store(from response: URLResponse?) {
        guard let response = response as? HTTPURLResponse, let url = response.url,
            response.value(forHTTPHeaderField: "Set-Cookie") != nil
        else { return }
        // A field may be spelled in more than one case, each kept apart; a repeated one arrives folded.
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, name.caseInsensitiveCompare("Set-Cookie") == .orderedSame,
                let value = value as? String
            else { continue }
            let cookies = HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": value], for: url)
            if !cookies.isEmpty { storage.setCookies(cookies, for: url, mainDocumentURL: nil) }
        }
    }
}
