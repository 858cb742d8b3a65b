import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session's cookie storage as the layer uses it: the cookies a request will carry (URLSession adds
/// them while sending, so the cache keys `private` replies by ``header(for:)``), and on Linux the
/// cookies replies set, stored by the layer on the delegate queue before the transfer goes on (so a
/// request from the handler carries them). Why: FoundationNetworking parses every header line as a
/// cookie, so its parsing is switched off; see <doc:LinuxNotes>. Unlike it, `set-cookie` counts too.
final class SessionCookies: Sendable {
    /// HTTPCookieStorage serializes itself, but not every SDK declares it `Sendable`.
    private let box: UncheckedSendable<HTTPCookieStorage>
    private var storage: HTTPCookieStorage { box.value }
    private let sendsCookies: Bool
    private let keepsReplyCookies: Bool

    init(storage: HTTPCookieStorage, sendsCookies: Bool = true, keepsReplyCookies: Bool = true) {
        box = UncheckedSendable(value: storage)
        self.sendsCookies = sendsCookies
        self.keepsReplyCookies = keepsReplyCookies
    }

    /// `nil` when the layer has nothing to do with the cookies (no storage, none sent, none kept).
    convenience init?(configuration: URLSessionConfiguration, keepsReplyCookies: Bool) {
        guard let storage = configuration.httpCookieStorage,
            configuration.httpShouldSetCookies || keepsReplyCookies
        else { return nil }
        self.init(
            storage: storage, sendsCookies: configuration.httpShouldSetCookies,
            keepsReplyCookies: keepsReplyCookies)
    }

    /// The `Cookie` field the session sends with `request`. A request's `httpShouldHandleCookies` is ignored,
    /// as FoundationNetworking does; a cookie counted but not sent costs only a cache miss.
    func header(for request: URLRequest) -> String? {
        guard sendsCookies, let url = request.url, let cookies = storage.cookies(for: url), !cookies.isEmpty
        else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    func store(from response: URLResponse?) {
        guard keepsReplyCookies, let response = response as? HTTPURLResponse, let url = response.url,
            response.value(forHTTPHeaderField: "Set-Cookie") != nil
        else { return }
        // Each spelling of the field is kept apart; a repeated one arrives folded.
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

    /// Splits folded `Set-Cookie` fields where the next `=` comes before any space, `;` or `,`. Why not
    /// Foundation's split: it swallows a cookie named like `cart[item]`; an `Expires` comma is followed by a
    /// day and a space.
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
