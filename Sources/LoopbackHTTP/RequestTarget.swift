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
    /// ("/path?q"), and a fragment is dropped. Only a scheme at the very start makes the absolute form: a
    /// "://" later on ("/page?next=http://x/y") is part of the path or query.
    package init(_ target: String) {
        var originForm = Substring(target)
        if let schemeLength = Self.schemeLength(target.utf8) {
            originForm =
                originForm[originForm.utf8.index(originForm.startIndex, offsetBy: schemeLength + 3)...]
            originForm =
                originForm.firstIndex(where: { $0 == "/" || $0 == "?" })
                .map { originForm[$0...] } ?? "/"
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

    /// Whether `target` is in absolute form: a scheme (RFC 3986: a letter, then letters, digits, "+", "-"
    /// or ".") and "://" at its start.
    package static func isAbsoluteForm(_ target: some Collection<UInt8>) -> Bool {
        schemeLength(target) != nil
    }

    /// The length of the scheme that starts `target` followed by "://"; `nil` when none does.
    private static func schemeLength(_ target: some Collection<UInt8>) -> Int? {
        guard let first = target.first, isLetter(first) else { return nil }
        let scheme = target.prefix { isLetter($0) || isDigit($0) || "+-.".utf8.contains($0) }
        return target.dropFirst(scheme.count).starts(with: "://".utf8) ? scheme.count : nil
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func items(of query: String) -> [URLQueryItem] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in text.removingPercentEncoding ?? String(text) }
            return URLQueryItem(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : nil)
        }
    }
}
