import Foundation

/// The directives of a `Cache-Control` field (RFC 9111 §5.2), as a private cache reads them.
struct CacheControl: Equatable {
    var maxAge: TimeInterval?
    var noStore = false
    var noCache = false
    var mustRevalidate = false
    var isPrivate = false
    var isPublic = false
    var immutable = false
    var staleWhileRevalidate: TimeInterval?
    var staleIfError: TimeInterval?
    /// Request directives.
    var maxStale: TimeInterval?
    var minFresh: TimeInterval?
    var onlyIfCached = false

    /// Parses a field value; unknown directives are ignored and a malformed delta-seconds counts as
    /// absent, except `max-age`, which counts as 0 (RFC 9111 §4.2.1).
    init(_ value: String? = nil) {
        guard let value else { return }
        for part in Self.split(value) {
            let pieces = part.split(separator: "=", maxSplits: 1).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            guard let name = pieces.first?.lowercased(), !name.isEmpty else { continue }
            var argument = pieces.count > 1 ? pieces[1] : nil
            if let quoted = argument, quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\"") {
                argument = String(quoted.dropFirst().dropLast())
            }
            let seconds = argument.flatMap(Self.deltaSeconds)
            switch name {
            // A repeated max-age is invalid; the stricter (smaller) reading keeps the cache safe.
            case "max-age": maxAge = min(maxAge ?? .infinity, seconds ?? 0)
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "must-revalidate", "proxy-revalidate": mustRevalidate = true
            case "private": isPrivate = true
            case "public": isPublic = true
            case "immutable": immutable = true
            case "stale-while-revalidate": staleWhileRevalidate = seconds
            case "stale-if-error": staleIfError = seconds
            case "max-stale": maxStale = argument == nil ? .infinity : seconds
            case "min-fresh": minFresh = seconds
            case "only-if-cached": onlyIfCached = true
            default: continue  // s-maxage (for shared caches) and directives the cache doesn't act on.
            }
        }
    }

    /// Non-negative integer seconds; a value too large for an `Int` is a very long time, not an error.
    static func deltaSeconds(_ text: String) -> TimeInterval? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return TimeInterval(text)
    }

    /// Splits on commas outside quoted strings.
    private static func split(_ value: String) -> [String] {
        var parts = [""]
        var quoted = false
        for character in value {
            if character == "\"" { quoted.toggle() }
            if character == ",", !quoted {
                parts.append("")
            } else {
                parts[parts.count - 1].append(character)
            }
        }
        return parts.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
