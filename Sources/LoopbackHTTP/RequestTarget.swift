import Foundation

/// A request target split into path and query, as servers route on it.
package struct RequestTarget: Sendable {
    /// The path without the query, still percent-encoded as sent, e.g. `"/users"`.
    package let path: String
    /// The query without the `?`, still percent-encoded; `nil` when there is no `?`.
    package let query: String?
    /// The query's items in order, names and values percent-decoded; a name without `=` has a `nil` value.
    package let queryItems: [URLQueryItem]

    /// Splits `target` as sent: the absolute form ("http://host/path?q") is reduced to the origin form
    /// ("/path?q"), and a fragment is dropped.
    package init(_ target: String) {
        var originForm = Substring(target)
        if let schemeEnd = originForm.range(of: "://") {
            let afterAuthority = originForm[schemeEnd.upperBound...]
            originForm =
                afterAuthority.firstIndex(where: { $0 == "/" || $0 == "?" })
                .map { afterAuthority[$0...] } ?? "/"
        }
        if let fragment = originForm.firstIndex(of: "#") { originForm = originForm[..<fragment] }
        guard let mark = originForm.firstIndex(of: "?") else {
            path = String(originForm)
            query = nil
            queryItems = []
            return
        }
        path = String(originForm[..<mark])
        let query = String(originForm[originForm.index(after: mark)...])
        self.query = query
        queryItems = Self.items(of: query)
    }

    private static func items(of query: String) -> [URLQueryItem] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in text.removingPercentEncoding ?? String(text) }
            return URLQueryItem(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : nil)
        }
    }
}
