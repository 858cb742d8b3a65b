import Foundation
import NetworkLayer

/// The URL rule of ``DummyNetworkLayer``'s stubs and spy queries.
///
/// The string is resolved with the layer's own `URLResolver` rule, so `employees`, `/employees` and the
/// absolute URL they resolve to all mean the same thing. When the layer has no base URL, a relative
/// string matches its path on any host. A URL matches when its scheme, host, port and path are the
/// pattern's; the query is ignored unless the pattern has one, in which case the query items must be
/// the same, in any order. A string that cannot be resolved matches nothing.
struct DummyURLPattern: Sendable, CustomStringConvertible {
    /// The string as the test wrote it.
    let text: String
    private let components: URLComponents?
    private let anyHost: Bool

    /// Stands in for the missing base URL when a relative pattern is resolved for path matching only.
    private static let placeholderBase = URL(string: "http://any-host.invalid")

    init(_ text: String, resolver: URLResolver) {
        self.text = text
        if let url = try? resolver.url(for: text) {
            components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            anyHost = false
        } else if resolver.baseURL == nil,
            let url = try? URLResolver(baseURL: Self.placeholderBase).url(for: text)
        {
            components = URLComponents(url: url, resolvingAgainstBaseURL: false)
            anyHost = true
        } else {
            components = nil
            anyHost = false
        }
    }

    /// A pattern for a request the real layer refuses to send: it matches nothing.
    static func matchingNothing(_ text: String) -> DummyURLPattern {
        DummyURLPattern(text: text)
    }

    private init(text: String) {
        self.text = text
        components = nil
        anyHost = false
    }

    var description: String {
        guard let components else { return "\(text) (not a valid URL: matches nothing)" }
        if anyHost { return "\(text) (any host)" }
        return components.string ?? text
    }

    func matches(_ url: URL) -> Bool {
        guard let pattern = components,
            let candidate = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return false }
        if !anyHost {
            guard pattern.scheme?.lowercased() == candidate.scheme?.lowercased(),
                pattern.host?.lowercased() == candidate.host?.lowercased(),
                pattern.port == candidate.port
            else { return false }
        }
        guard Self.path(of: pattern) == Self.path(of: candidate) else { return false }
        guard let query = pattern.percentEncodedQuery, !query.isEmpty else { return true }
        return Self.queryItems(of: pattern) == Self.queryItems(of: candidate)
    }

    private static func path(of components: URLComponents) -> String {
        components.path.isEmpty ? "/" : components.path
    }

    /// The decoded query items in a canonical order, so `?b=2&a=1` equals `?a=1&b=2`.
    private static func queryItems(of components: URLComponents) -> [String] {
        (components.queryItems ?? []).map { item in
            item.value.map { "\(item.name)=\($0)" } ?? item.name
        }.sorted()
    }
}
