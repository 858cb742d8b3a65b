import Foundation

/// Rewrites the recorded origins in replayed `Location`, `Content-Location` and `Link` fields to the
/// replaying server's own, so a client that follows a redirect or a `rel="next"` link comes back to the
/// server instead of going to the recorded host.
///
/// An origin is a scheme, host and port (the scheme's default port when none is written); only a URL
/// whose origin is one the archive recorded requests to is rewritten, and only its origin: its path,
/// query and fragment stay as recorded. Relative references need nothing.
struct ReplayOrigin {
    private static let rewrittenFields: Set<String> = ["location", "content-location", "link"]

    private let recorded: Set<String>
    private let scheme: String
    private let host: String
    private let port: Int?

    /// - Parameters:
    ///   - recorded: The recorded origins, from ``recordedOrigins(in:)``.
    ///   - server: The origin to put in their place, such as `http://127.0.0.1:50123`.
    init?(recorded: Set<String>, server: URL) {
        guard let scheme = server.scheme, let host = server.host else { return nil }
        self.recorded = recorded
        self.scheme = scheme
        self.host = host
        port = server.port
    }

    /// The origins of every request URL in `archive`.
    static func recordedOrigins(in archive: HARArchive) -> Set<String> {
        Set(archive.entries.compactMap { URL(string: $0.request.url).flatMap(origin(of:)) })
    }

    /// The fields with the recorded origins replaced.
    func rewrite(_ fields: [(name: String, value: String)]) -> [(name: String, value: String)] {
        fields.map { field in
            guard Self.rewrittenFields.contains(field.name.lowercased()) else { return field }
            let value =
                field.name.caseInsensitiveCompare("Link") == .orderedSame
                ? rewriteLinkTargets(field.value) : rewriteURL(field.value)
            return (name: field.name, value: value)
        }
    }

    /// Every `<target>` of a `Link` value, rewritten.
    private func rewriteLinkTargets(_ value: String) -> String {
        var result = ""
        var rest = Substring(value)
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            result += rest[...open]
            result += rewriteURL(String(rest[rest.index(after: open)..<close]))
            rest = rest[close...]
        }
        return result + rest
    }

    private func rewriteURL(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let url = URL(string: trimmed), let origin = Self.origin(of: url), recorded.contains(origin),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return text }
        components.scheme = scheme
        components.host = host
        components.port = port
        return components.string ?? text
    }

    /// `scheme://host:port`, lowercased, with the default port written out; `nil` for a relative URL.
    private static func origin(of url: URL) -> String? {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }
}
