import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session's cookie storage as the layer uses it. The cookie an attempt carries is read once, before
/// the origin's gate (``pinned(for:)``): sharing and the cache key the attempt by it, and it is the one sent,
/// however long the attempt waits for its origin and whatever a sign-out or sign-in meanwhile stores. On
/// Linux the layer sends every request's cookies and stores the cookies every reply sets, on the delegate
/// queue before the transfer goes on (so a request from the handler carries them): FoundationNetworking
/// parses every header line as a cookie, so its handling is switched off; see <doc:LinuxNotes>. Unlike it,
/// `set-cookie` counts too. On Apple platforms URLSession does both, but for a pinned attempt, which the
/// layer sends and whose reply's cookies it stores.
final class SessionCookies: Sendable {
    /// HTTPCookieStorage serializes itself, but not every SDK declares it `Sendable`.
    private let box: UncheckedSendable<HTTPCookieStorage>
    private var storage: HTTPCookieStorage { box.value }
    private let sendsCookies: Bool
    /// Whether the configuration accepts the cookies replies set.
    private let acceptsCookies: Bool
    /// What the session does with cookies itself.
    private let facts: PlatformFacts

    /// `facts`: the session's; a test passes the other platform's, standing in for its session.
    init(
        storage: HTTPCookieStorage, sendsCookies: Bool = true, acceptsCookies: Bool = true,
        facts: PlatformFacts = .current
    ) {
        box = UncheckedSendable(value: storage)
        self.sendsCookies = sendsCookies
        self.acceptsCookies = acceptsCookies
        self.facts = facts
    }

    /// `nil` when the session has nothing to do with cookies (no storage, none sent, none accepted). Read
    /// before ``PlatformSession/handOverCookies(of:facts:)`` switches the session's own handling off.
    convenience init?(configuration: URLSessionConfiguration) {
        let accepts = configuration.httpCookieAcceptPolicy != .never
        guard let storage = configuration.httpCookieStorage, configuration.httpShouldSetCookies || accepts
        else { return nil }
        self.init(storage: storage, sendsCookies: configuration.httpShouldSetCookies, acceptsCookies: accepts)
    }

    /// The `Cookie` field the session would add to `request` now; `nil` for none. A field the session adds
    /// replaces the request's own (FoundationNetworking's rule); on Apple platforms a request with its
    /// own `Cookie` field gets none from the storage.
    func header(for request: URLRequest) -> String? {
        guard addsCookies(to: request), let url = request.url,
            let cookies = storage.cookies(for: url), !cookies.isEmpty
        else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    /// The cookie `request` will carry, read now; `nil` when the session adds it none whatever the storage
    /// holds (nothing then to pin).
    func pinned(for request: URLRequest) -> PinnedCookie? {
        guard addsCookies(to: request) else { return nil }
        return PinnedCookie(header: header(for: request))
    }

    /// Whether the session adds the storage's cookies to `request` when it goes out
    /// (``PlatformFacts/replacesRequestCookies``).
    private func addsCookies(to request: URLRequest) -> Bool {
        sendsCookies
            && (facts.replacesRequestCookies
                || (request.httpShouldHandleCookies && request.value(forHTTPHeaderField: "Cookie") == nil))
    }

    /// `request` as it goes on the wire: with `pinned`'s cookie, else (on Linux) the storage's now.
    func attaching(_ pinned: PinnedCookie?, to request: URLRequest) -> URLRequest {
        var request = request
        if facts.layerHandlesCookies {
            // Pinned without a cookie: the attempt goes without one, whatever the storage holds now.
            if let header = pinned == nil ? header(for: request) : pinned?.header {
                request.setValue(header, forHTTPHeaderField: "Cookie")
            }
        } else if let pinned {
            // URLSession neither adds the storage's cookies nor stores the reply's: ``store(from:pinned:)``.
            if let header = pinned.header { request.setValue(header, forHTTPHeaderField: "Cookie") }
            request.httpShouldHandleCookies = false
        }
        return request
    }

    /// Stores the cookies `response` sets, when the layer keeps them: on Linux always, on Apple platforms
    /// for a `pinned` attempt; never when the configuration accepts none.
    func store(from response: URLResponse?, pinned: Bool = false) {
        guard acceptsCookies, facts.layerHandlesCookies || pinned,
            let response = response as? HTTPURLResponse,
            let url = response.url, response.value(forHTTPHeaderField: "Set-Cookie") != nil
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

/// The `Cookie` field the session adds to an attempt, read from the storage once, before the origin's gate:
/// sharing and the cache key the attempt by it, and the transport sends it rather than reading the storage
/// again when the attempt goes out. `header` `nil`: the attempt goes without the storage's cookies.
struct PinnedCookie: Sendable, Hashable {
    let header: String?
}
