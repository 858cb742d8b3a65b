import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which URLs a stub answers.
public struct RequestMatcher: Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// Says whether a request's URL matches.
    public let matches: @Sendable (URL) -> Bool
    /// How the matcher reads in a failure message.
    public let description: String

    /// A matcher from a predicate on the URL.
    ///
    /// - Parameters:
    ///   - description: How the matcher reads in a failure message.
    ///   - matches: Says whether a request's URL matches.
    public init(_ description: String, matches: @escaping @Sendable (URL) -> Bool) {
        self.description = description
        self.matches = matches
    }

    /// Matches exactly this absolute URL string, query included.
    ///
    /// - Parameter value: The URL string.
    public init(stringLiteral value: String) {
        self = .exact(value)
    }

    /// Matches exactly this absolute URL string, query included.
    ///
    /// - Parameter urlString: The URL string.
    /// - Returns: The matcher.
    public static func exact(_ urlString: String) -> RequestMatcher {
        RequestMatcher(urlString) { $0.absoluteString == urlString }
    }

    /// Matches every URL that starts with `prefix`.
    ///
    /// - Parameter prefix: The start of the URL string.
    /// - Returns: The matcher.
    public static func prefix(_ prefix: String) -> RequestMatcher {
        RequestMatcher("\(prefix)*") { $0.absoluteString.hasPrefix(prefix) }
    }

    /// Matches every URL whose path is `path`, whatever the host and query. The path is compared
    /// percent-decoded, and a trailing `/` counts: `/employees/` is not `/employees`.
    ///
    /// - Parameter path: The path, unencoded.
    /// - Returns: The matcher.
    public static func path(_ path: String) -> RequestMatcher {
        RequestMatcher("*\(path)") { url in
            // Not `URL.path`: it drops a trailing slash, so `.path("/employees/")` could never match.
            let actual = URLComponents(url: url, resolvingAgainstBaseURL: false)?.path ?? url.path
            return (actual.isEmpty ? "/" : actual) == path
        }
    }

    /// Matches every URL.
    public static var any: RequestMatcher { RequestMatcher("*") { _ in true } }
}
