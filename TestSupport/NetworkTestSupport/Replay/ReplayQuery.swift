import Foundation

/// A URL read as replay compares it, from text, so that any URL an exporter wrote parses: the origin,
/// the path and the query's items, percent-decoded.
struct ReplayURL: Sendable, Equatable {
    /// `scheme://host[:port]` in lower case, the default port left out; empty for a URL without a host.
    let origin: String
    /// The path, percent-decoded; `/` when empty.
    let path: String
    /// The query's items, names and values percent-decoded, in order.
    let query: [URLQueryItem]

    init(_ text: String) {
        let beforeFragment = text.prefix { $0 != "#" }
        let question = beforeFragment.firstIndex(of: "?")
        let head = beforeFragment[..<(question ?? beforeFragment.endIndex)]
        query =
            question.map { ReplayQuery.items(ofQuery: beforeFragment[beforeFragment.index(after: $0)...]) }
            ?? []
        guard let separator = head.range(of: "://") else {
            origin = ""
            path = Self.decodedPath(head)
            return
        }
        let scheme = head[..<separator.lowerBound].lowercased()
        let rest = head[separator.upperBound...]
        let authority = rest.prefix { $0 != "/" }
        let hostAndPort = authority.split(separator: "@").last.map(String.init) ?? ""
        origin = scheme + "://" + Self.withoutDefaultPort(hostAndPort.lowercased(), scheme: scheme)
        path = Self.decodedPath(rest[authority.endIndex...])
    }

    private static func decodedPath(_ path: Substring) -> String {
        path.isEmpty ? "/" : path.removingPercentEncoding ?? String(path)
    }

    private static func withoutDefaultPort(_ authority: String, scheme: String) -> String {
        let defaultPort = ["http": ":80", "https": ":443"][scheme]
        guard let defaultPort, authority.hasSuffix(defaultPort) else { return authority }
        return String(authority.dropLast(defaultPort.count))
    }
}

/// Query strings read as replay compares them.
enum ReplayQuery {
    /// The items of the query of the URL `text`, percent-decoded; `[]` without a query.
    static func items(ofURL text: String) -> [URLQueryItem] {
        ReplayURL(text).query
    }

    /// The items of a percent-encoded query (without its `?`), names and values percent-decoded, in
    /// order; `+` stays `+`, as it was sent. Empty pieces (`a=1&&b=2`) are skipped.
    static func items(ofQuery query: Substring) -> [URLQueryItem] {
        query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (text: Substring) in text.removingPercentEncoding ?? String(text) }
            return URLQueryItem(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : nil)
        }
    }

    /// Whether a recorded query matches a sent one: the same items in any order, a recorded value of
    /// `<redacted>` standing for any value of its name.
    static func matches(recorded: [URLQueryItem], sent: [URLQueryItem]) -> Bool {
        guard recorded.count == sent.count else { return false }
        var unmatched = sent
        let wildcard = HARRedactor.marker
        // Exact items first, so that a wildcard never takes the value an exact item needs.
        for item in recorded where item.value != wildcard {
            guard let index = unmatched.firstIndex(of: item) else { return false }
            unmatched.remove(at: index)
        }
        for item in recorded where item.value == wildcard {
            guard let index = unmatched.firstIndex(where: { $0.name == item.name }) else { return false }
            unmatched.remove(at: index)
        }
        return unmatched.isEmpty
    }
}
