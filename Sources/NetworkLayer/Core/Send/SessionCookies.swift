import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session's cookie storage, as the layer uses it: the cookies a request will carry, which the cache
/// keys `private` replies by, and on Linux the cookies replies set, which the layer stores itself.
///
/// **The cookies a request carries.** URLSession adds them from the storage as it sends the request, so
/// the request itself doesn't show them (``header(for:)``).
///
/// **The cookies replies set (Linux).** FoundationNetworking parses every header line of every reply as
/// a possible cookie, whether or not it is a `Set-Cookie` line: 6.2–6.5% of the process's CPU for small
/// GETs at 64 in flight. So on Linux the session runs with `httpCookieAcceptPolicy` `.never`, which
/// switches that parsing off (and nothing else: requests still carry the storage's cookies), and the
/// layer stores the cookies of each reply that has a `Set-Cookie` field: a final reply, a redirect
/// followed, a 3xx not followed, a 401 or 407. Into the same storage, by the same parser, for the reply's
/// URL, as FoundationNetworking did (``PlatformSession/keepsCookies(of:)``). One difference: a field
/// spelled `set-cookie` (as every HTTP/2 reply spells it) is stored too, as on Apple platforms;
/// FoundationNetworking only read `Set-Cookie`.
///
/// A reply is stored on the session's delegate queue, before the transfer goes on, so a request sent
/// from its handler carries the cookie. `HTTPCookieStorage.shared` writes its file on each change: that
/// write happened on libcurl's thread before, and happens on the delegate queue now.
final class SessionCookies: @unchecked Sendable {
    // HTTPCookieStorage serializes its own state, but not every SDK declares it `Sendable`.
    private let storage: HTTPCookieStorage
    /// Whether requests carry the storage's cookies (`httpShouldSetCookies`).
    private let sendsCookies: Bool
    /// Whether the layer stores the cookies replies set (``PlatformSession/keepsCookies(of:)``).
    private let keepsReplyCookies: Bool

    init(storage: HTTPCookieStorage, sendsCookies: Bool = true, keepsReplyCookies: Bool = true) {
        self.storage = storage
        self.sendsCookies = sendsCookies
        self.keepsReplyCookies = keepsReplyCookies
    }

    /// The cookies of a session made with `configuration`; `nil` when the layer has nothing to do with
    /// them (no storage, or none sent and none kept by the layer).
    ///
    /// - Parameter keepsReplyCookies: Whether the layer stores the cookies replies set.
    convenience init?(configuration: URLSessionConfiguration, keepsReplyCookies: Bool) {
        guard let storage = configuration.httpCookieStorage,
            configuration.httpShouldSetCookies || keepsReplyCookies
        else { return nil }
        self.init(
            storage: storage, sendsCookies: configuration.httpShouldSetCookies,
            keepsReplyCookies: keepsReplyCookies)
    }

    /// The `Cookie` field the session sends with `request`, if it sends one. A request's own
    /// `httpShouldHandleCookies` is not consulted: FoundationNetworking ignores it, and a cookie counted
    /// that isn't sent only costs a cache miss.
    func header(for request: URLRequest) -> String? {
        guard sendsCookies, let url = request.url, let cookies = storage.cookies(for: url), !cookies.isEmpty
        else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    /// Stores the cookies `response` sets, if any.
    func store(from response: URLResponse?) {
        guard keepsReplyCookies, let response = response as? HTTPURLResponse, let url = response.url,
            response.value(forHTTPHeaderField: "Set-Cookie") != nil
        else { return }
        // A field may be spelled in more than one case, each kept apart; a repeated one arrives folded.
        for (name, value) in response.allHeaderFields {
            guard let name = name as? String, name.caseInsensitiveCompare("Set-Cookie") == .orderedSame,
                let value = value as? String
            else { continue }
            let cookies = Self.fields(folded: value).flatMap { field in
                HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": String(field)], for: url)
            }
            if !cookies.isEmpty { storage.setCookies(cookies, for: url, mainDocumentURL: nil) }
        }
    }

    /// The `Set-Cookie` fields a reply's repeated fields were folded from (joined by ", "). Foundation's
    /// parser splits them only where a plain token and `=` follow, so a cookie named like `cart[item]`
    /// would be swallowed by the one before. Split here where the next `=` comes before any space, `;` or
    /// `,`: a comma in an `Expires` date is followed by a day and a space (`Wed, 09 Jun 2027 …`).
    static func fields(folded value: String) -> [Substring] {
        var fields: [Substring] = []
        var start = value.startIndex
        var index = value.startIndex
        while let comma = value[index...].firstIndex(of: ",") {
            let next = value.index(after: comma)
            index = next
            guard next < value.endIndex, value[next] == " " else { continue }
            let name = value[value.index(after: next)...].prefix { !"= ;,".contains($0) }
            guard !name.isEmpty, name.endIndex < value.endIndex, value[name.endIndex] == "=" else { continue }
            fields.append(value[start..<comma])
            start = name.startIndex
        }
        fields.append(value[start...])
        return fields
    }
}
