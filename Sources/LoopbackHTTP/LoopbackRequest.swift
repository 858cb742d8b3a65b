import Foundation

/// One request a ``LoopbackServer`` read whole, head and body, as its handler gets it.
package struct LoopbackRequest: Sendable {
    /// The method, e.g. `"GET"`, exactly as sent.
    package let method: String
    /// The request target exactly as sent, e.g. `"/api/events?token=abc"`.
    package let target: String
    /// The path without the query, still percent-encoded, e.g. `"/api/events"`.
    package let path: String
    /// The query without the `?`, still percent-encoded; `nil` when there is no `?`.
    package let query: String?
    /// The query's items in order, percent-decoded.
    package let queryItems: [URLQueryItem]
    /// Every header field in the order sent.
    package let headers: [(name: String, value: String)]
    /// The body after any chunked transfer coding was removed; empty when there was none.
    package let body: Data

    package init(head: RequestHead, body: [UInt8]) {
        method = head.method
        target = head.target
        headers = head.headers
        let split = RequestTarget(head.target)
        path = split.path
        query = split.query
        queryItems = split.queryItems
        self.body = Data(body)
    }

    /// The `Host` field as sent, e.g. `"127.0.0.1:8080"`; `nil` without one (HTTP/1.1 requires it).
    package var host: String? { header("Host") }

    /// The field `name`, compared case-insensitively; several of that name come back joined by ", ".
    package func header(_ name: String) -> String? {
        HeaderLookup.value(of: name, in: headers)
    }

    /// The value of the first query item called `name`, percent-decoded.
    package func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }
}
