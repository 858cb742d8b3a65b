import Foundation

/// The one rule that turns a caller's URL string into an absolute URL: an absolute `http(s)` URL with a
/// host, or a path appended to the base path with exactly one `/` (`users` and `/users` against `.../v1`
/// or `.../v1/` give `.../v1/users`). `//host`, `..` segments and, where only a path is allowed, absolute
/// URLs are refused; `a:b` reads as a scheme (RFC 3986), so write `/a:b`.
package struct URLResolver: Sendable {
    package let baseURL: URL?
    private let base: URLComponents?
    /// The base up to its path, without a trailing `/`, when it has no query or fragment: a plain path is
    /// appended without parsing (the common case, usually on the main queue).
    private let basePrefix: String?

    package init(baseURL: URL?) {
        self.baseURL = baseURL
        base = baseURL.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: true) }.flatMap {
            $0.scheme.map(Self.isWeb) == true ? $0 : nil
        }
        if let base, base.percentEncodedQuery == nil, base.percentEncodedFragment == nil, let url = base.url {
            let text = url.absoluteString
            basePrefix = text.hasSuffix("/") ? String(text.dropLast()) : text
        } else {
            basePrefix = nil
        }
    }

    package func url(
        for string: String, query: String = "", requiringPath: Bool = false
    ) throws(NetworkError) -> URL {
        if let url = plainPathURL(string, query: query) ?? writtenURL(string, query: query, requiringPath) {
            return url
        }
        guard !string.isEmpty || baseURL != nil, var components = URLComponents(string: string) else {
            throw .invalidURL(string)
        }
        if let scheme = components.scheme {
            guard !requiringPath, Self.isWeb(scheme), components.host?.isEmpty == false else {
                throw .invalidURL(string)
            }
        } else {
            guard components.host == nil, !Self.climbsUp(components.percentEncodedPath), var base else {
                throw .invalidURL(string)
            }
            base.percentEncodedPath = Self.join(base.percentEncodedPath, components.percentEncodedPath)
            base.percentEncodedQuery = Self.merge(base.percentEncodedQuery, components.percentEncodedQuery)
            base.fragment = nil
            components = base
        }
        if !query.isEmpty {
            components.percentEncodedQuery = Self.merge(components.percentEncodedQuery, query)
        }
        guard let url = components.url else { throw .invalidURL(string) }
        return url
    }

    /// A relative path of letters, digits, `/`, `-`, `_` and `.` without `..`, maybe with a query of those
    /// and `=`, `&`, `~` (`items?page=2`), joined by the same rule; `nil` sends everything else through the
    /// full parse. One parse instead of the full parse's two, for the common case.
    private func plainPathURL(_ string: String, query: String) -> URL? {
        let mark = string.utf8.firstIndex(of: 0x3F)  // `?`
        let path = mark.map { string[..<$0] } ?? string[...]
        let written = mark.map { string[string.utf8.index(after: $0)...] } ?? ""
        // `//host` changes the host and a bare `/` means the base itself: both take the full parse, as does
        // an empty query (the full parse drops its `?`).
        guard let basePrefix, !path.isEmpty, !path.hasPrefix("//"), path != "/",
            mark == nil || !written.isEmpty, Self.plainPathBytes.containsAll(path),
            Self.plainQueryBytes.containsAll(written), !Self.climbsUp(path)
        else { return nil }
        var text = basePrefix + "/" + path.drop { $0 == "/" }
        // As the full parse merges them: the string's query, then the request's.
        let queries = [written, query[...]].filter { !$0.isEmpty }
        if !queries.isEmpty { text += "?" + queries.joined(separator: "&") }
        return URL(string: text)
    }

    /// An absolute `http(s)` URL with a host that parses exactly as written, when there is no query to add:
    /// one parse instead of the full parse's two (the common case of an absolute URL). `nil` sends
    /// everything else (an uppercase scheme, a character the parser would encode) through the full parse.
    private func writtenURL(_ string: String, query: String, _ requiringPath: Bool) -> URL? {
        guard query.isEmpty, !requiringPath, string.hasPrefix("http://") || string.hasPrefix("https://"),
            let url = URL(string: string), url.host?.isEmpty == false, url.absoluteString == string
        else { return nil }
        return url
    }

    private static let plainPathBytes = ByteSet(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/-_.")
    private static let plainQueryBytes = ByteSet(
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.~=&")

    /// Whether a relative path has a `..` segment however spelled (`%2E%2E`, `..;param`, `..%2F`, `..%5C`):
    /// servers that decode and normalise paths would read it as leaving the base path.
    private static func climbsUp(_ percentEncodedPath: some StringProtocol) -> Bool {
        // Without a percent sign, a `..` segment needs two dots in a row: a byte scan rules most paths out.
        let bytes = percentEncodedPath.utf8
        if !bytes.contains(0x25), !zip(bytes, bytes.dropFirst()).contains(where: { $0 == 0x2E && $1 == 0x2E })
        {
            return false
        }
        return percentEncodedPath.split(separator: "/").contains { segment in
            let decoded =
                segment.contains("%") ? segment.removingPercentEncoding ?? String(segment) : String(segment)
            return decoded.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }.contains {
                $0.split(separator: ";", omittingEmptySubsequences: false).first == ".."
            }
        }
    }

    private static func isWeb(_ scheme: String) -> Bool {
        ["http", "https"].contains(scheme.lowercased())
    }

    private static func join(_ basePath: String, _ path: String) -> String {
        let head = basePath.hasSuffix("/") ? String(basePath.dropLast()) : basePath
        let tail = path.drop { $0 == "/" }
        return tail.isEmpty ? (head.isEmpty ? "/" : basePath) : head + "/" + tail
    }

    private static func merge(_ first: String?, _ second: String?) -> String? {
        let parts = [first, second].compactMap { $0 }.filter { !$0.isEmpty }
        return parts.isEmpty ? nil : parts.joined(separator: "&")
    }
}
