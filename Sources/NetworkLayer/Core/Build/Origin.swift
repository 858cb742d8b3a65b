import Foundation

/// A URL's origin (scheme, host, port): the unit the layer trusts with credentials. Every origin
/// comparison goes through it so all spellings agree: case-insensitive, default ports filled in,
/// user-info ignored, IPv6 compared as addresses; a trailing dot is another host, as in browsers. A
/// non-http(s) URL or one without a host has no origin and matches nothing.
package struct Origin: Hashable, Sendable, CustomStringConvertible {
    package let scheme: String
    package let host: String
    package let port: Int

    /// The origin of `url`, resolved against its base URL first; `nil` when it has none.
    package init?(_ url: URL) {
        guard let components = URLComponents(url: url.absoluteURL, resolvingAgainstBaseURL: true),
            let scheme = components.scheme?.lowercased(),
            let defaultPort = Self.defaultPorts[scheme],
            let host = components.percentEncodedHost.flatMap(Self.canonicalHost)
        else { return nil }
        self.scheme = scheme
        self.host = host
        port = components.port ?? defaultPort
    }

    package var description: String {
        "\(scheme)://\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    package func contains(_ url: URL?) -> Bool {
        url.flatMap(Origin.init) == self
    }

    private static let defaultPorts = ["http": 80, "https": 443]

    /// Bytes of a host that is already canonical when made only of them (lowercase, digits, `-`, `.`).
    private static let plainHostBytes = ByteSet("abcdefghijklmnopqrstuvwxyz0123456789-.")

    /// The host lowercased, percent-decoded, IPv6 without brackets in its shortest form; `nil` if empty.
    private static func canonicalHost(_ encoded: String) -> String? {
        // Fast path: most hosts are already canonical, and String's searches are costly per request.
        if !encoded.isEmpty, plainHostBytes.containsAll(encoded) { return encoded }
        var host = (encoded.removingPercentEncoding ?? encoded).lowercased()
        if host.hasPrefix("[") && host.hasSuffix("]") {
            host = String(host.dropFirst().dropLast())
        }
        guard !host.isEmpty else { return nil }
        guard host.contains(":") else { return host }
        return IPv6Address(host)?.description ?? host
    }
}

private struct IPv6Address: CustomStringConvertible {
    let groups: [UInt16]

    /// Parses `1:2::3` forms (no zone, no embedded IPv4); `nil` for anything else.
    init?(_ text: String) {
        let halves = text.components(separatedBy: "::")
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String) -> [UInt16]? {
            guard !part.isEmpty else { return [] }
            let parsed = part.split(separator: ":", omittingEmptySubsequences: false).map {
                $0.count <= 4 ? UInt16($0, radix: 16) : nil
            }
            return parsed.contains(nil) ? nil : parsed.compactMap { $0 }
        }
        guard let head = groups(halves[0]), let tail = halves.count == 2 ? groups(halves[1]) : [] else {
            return nil
        }
        let missing = 8 - head.count - tail.count
        guard halves.count == 2 ? missing >= 1 : missing == 0 else { return nil }
        self.groups = head + [UInt16](repeating: 0, count: missing) + tail
    }

    var description: String {
        groups.map { String($0, radix: 16) }.joined(separator: ":")
    }
}
