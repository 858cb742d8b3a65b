import Foundation

extension MockResponse {
    /// This reply with a `Cache-Control` field, such as `max-age=60` or `no-cache`.
    ///
    /// - Parameter value: The field's value.
    /// - Returns: A copy with the field added.
    public func cacheControl(_ value: String) -> MockResponse {
        addingHeader("Cache-Control", value)
    }

    /// This reply fresh for `maxAge` seconds, then, for `staleWhileRevalidate` seconds more, served stale
    /// at once while a cache revalidates it in the background (RFC 5861):
    /// `Cache-Control: max-age=60, stale-while-revalidate=30`.
    ///
    /// ```swift
    /// server.handler = { request in
    ///     MockResponse(text: "v1").cacheControl(maxAge: 60, staleWhileRevalidate: 30).etag("\"v1\"")
    ///         .notModified(ifMatching: request)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - maxAge: Seconds the reply is fresh.
    ///   - staleWhileRevalidate: Seconds after that it may be served while it is revalidated.
    /// - Returns: A copy with the field added.
    public func cacheControl(maxAge: Int, staleWhileRevalidate: Int) -> MockResponse {
        cacheControl("max-age=\(maxAge), stale-while-revalidate=\(staleWhileRevalidate)")
    }

    /// This reply with an `ETag` validator.
    ///
    /// - Parameter tag: The entity tag, quoted as it goes on the wire: `"\"v1\""`, or `"W/\"v1\""`.
    /// - Returns: A copy with the field added.
    public func etag(_ tag: String) -> MockResponse {
        addingHeader("ETag", tag)
    }

    /// This reply with a `Last-Modified` validator.
    ///
    /// - Parameter date: When the resource last changed; written as an HTTP date.
    /// - Returns: A copy with the field added.
    public func lastModified(_ date: Date) -> MockResponse {
        addingHeader("Last-Modified", Self.httpDate(date))
    }

    /// A `304 Not Modified` reply when `request` is conditional on this reply's validators (`If-None-Match`
    /// on its `ETag`, or `If-Modified-Since` on its `Last-Modified`), carrying its `ETag`, `Cache-Control`
    /// and `Expires`; otherwise this reply. For a handler that revalidates like a real server.
    ///
    /// - Parameter request: The request being answered.
    /// - Returns: A 304, or this reply.
    public func notModified(ifMatching request: MockServerRequest) -> MockResponse {
        let tagMatches = request.header("If-None-Match").map { condition in
            guard let tag = header("ETag") else { return false }
            return condition.split(separator: ",").contains {
                Self.weak($0.trimmingCharacters(in: .whitespaces)) == Self.weak(tag) || $0.contains("*")
            }
        }
        let dateMatches = request.header("If-Modified-Since").map { $0 == header("Last-Modified") }
        guard tagMatches ?? dateMatches ?? false else { return self }
        var fields: [String: String] = [:]
        for name in ["ETag", "Cache-Control", "Expires", "Last-Modified"] {
            if let value = header(name) { fields[name] = value }
        }
        return MockResponse(status: 304, headers: fields)
    }

    private static func weak(_ tag: String) -> String {
        tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
    }

    /// An HTTP date (IMF-fixdate), as `Date`, `Expires` and `Last-Modified` carry it.
    ///
    /// - Parameter date: The date.
    /// - Returns: Such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}

extension MockServer {
    /// How many requests for `path` the server has received (taken or not): "the second load is
    /// instant" is `requestCount(forPath: "/items") == 1` after two loads.
    ///
    /// - Parameter path: The path, without the query, such as `/items`.
    /// - Returns: The number of recorded requests for it.
    public func requestCount(forPath path: String) -> Int {
        recordedRequests.filter { $0.path == path }.count
    }
}
