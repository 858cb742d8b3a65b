import Foundation
import LoopbackHTTP

/// One request the ``MockServer`` received, as recorded for the test to inspect.
public struct MockServerRequest: Sendable {
    /// The method, e.g. `"GET"`, exactly as sent.
    public let method: String
    /// The request target exactly as sent, e.g. `"/users?page=2"`.
    public let target: String
    /// The path without the query, still percent-encoded as sent, e.g. `"/users"`.
    public let path: String
    /// The query string without the `?`, still percent-encoded; `nil` when there is no `?`.
    public let query: String?
    /// The query's items in order, names and values percent-decoded; a name without `=` has a `nil` value.
    public let queryItems: [URLQueryItem]
    /// The protocol version from the request line, `"HTTP/1.1"` or `"HTTP/1.0"`.
    public let version: String
    /// Every header field in the order sent, names spelled as sent. Look up with ``header(_:)``.
    public let headers: [(name: String, value: String)]
    /// The request line and header section exactly as the client sent them, line ends
    /// included (CRLF, or a bare LF, which the server also accepts as a line end), through the
    /// empty line that ends the head. For tests of what went on the wire, e.g. that no
    /// injected line arrived. Empty lines sent before the request line are not included.
    public let rawHead: Data
    /// The body after any chunked transfer coding was removed; empty when there was none, or when the
    /// server discards bodies.
    public let body: Data
    /// How many body bytes arrived (after chunked transfer coding was removed), kept or not.
    public let bodyLength: Int
    /// The position of this request among all the server received, from 0.
    public let sequenceNumber: Int
    /// Which accepted connection carried the request, counting from 0: requests sent on
    /// one kept-alive connection share it.
    public let connectionID: Int

    init(head: RequestHead, body: [UInt8], bodyLength: Int, sequenceNumber: Int, connectionID: Int) {
        self.bodyLength = bodyLength
        method = head.method
        target = head.target
        version = head.version
        headers = head.headers
        rawHead = Data(head.raw)
        self.body = Data(body)
        self.sequenceNumber = sequenceNumber
        self.connectionID = connectionID
        wantsKeepAlive = head.wantsKeepAlive
        var originForm = Substring(head.target)
        // Absolute form ("http://host/path?q") is reduced to the origin form ("/path?q").
        if let schemeEnd = originForm.range(of: "://") {
            let afterAuthority = originForm[schemeEnd.upperBound...]
            originForm =
                afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" })
                .map { afterAuthority[$0...] } ?? "/"
        }
        if let fragment = originForm.firstIndex(of: "#") { originForm = originForm[..<fragment] }
        if let mark = originForm.firstIndex(of: "?") {
            path = String(originForm[..<mark])
            let query = String(originForm[originForm.index(after: mark)...])
            self.query = query
            queryItems = Self.items(of: query)
        } else {
            path = String(originForm)
            query = nil
            queryItems = []
        }
    }

    /// The value of the header field `name`, compared case-insensitively; several fields
    /// of that name come back joined by ", ". `nil` when the request has none.
    ///
    /// - Parameter name: The field's name, in any case.
    /// - Returns: The value, or `nil`.
    public func header(_ name: String) -> String? {
        HeaderLookup.value(of: name, in: headers)
    }

    /// The value of the first query item called `name`, percent-decoded.
    ///
    /// - Parameter name: The item's name, as sent.
    /// - Returns: The value, or `nil` without such an item or value.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The body decoded as UTF-8, or `nil` if it is not valid UTF-8.
    public var bodyText: String? {
        String(data: body, encoding: .utf8)
    }

    /// The body decoded from JSON as `type`; throws the decoder's error, so a failing test says why.
    /// ``RecordedRequest/decodedBody(as:decoder:)`` reads a test double's recording the same way.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - decoder: The decoder; pass the app's when it uses a key or date strategy.
    /// - Returns: The decoded body.
    public func decodedBody<T: Decodable>(as type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: body)
    }

    /// Whether the connection stays open after this request, by HTTP/1.1's rules.
    let wantsKeepAlive: Bool

    private static func items(of query: String) -> [URLQueryItem] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in text.removingPercentEncoding ?? String(text) }
            return URLQueryItem(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : nil)
        }
    }
}
