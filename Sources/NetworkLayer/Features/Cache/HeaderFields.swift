import Foundation

/// Header fields looked up by name in any case. Why not a dictionary keyed by the lower-cased name: building
/// one cost an allocation and a lower-cased copy of every name, for each request and each stored reply, and
/// the cache asks a few names of a few fields; comparing the names in place allocates nothing and hashes
/// nothing. See <doc:Performance>.
struct HeaderFields: ExpressibleByDictionaryLiteral {
    private let fields: [String: String]
    /// Whether every name is ASCII, as RFC 9110's tokens are: then only ASCII case variants match.
    private let isASCII: Bool

    init(_ fields: [String: String]) {
        self.fields = fields
        isASCII = fields.keys.allSatisfy(Self.isASCII)
    }

    init(dictionaryLiteral elements: (String, String)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    subscript(name: String) -> String? {
        for (key, value) in fields where key.equalsIgnoringASCIICase(name) { return value }
        // Other names match as `lowercased()` makes them, as they always have (the Kelvin sign is a `k`).
        guard !(isASCII && Self.isASCII(name)) else { return nil }
        let lowered = name.lowercased()
        return fields.first { $0.key.lowercased() == lowered }?.value
    }

    /// The `Cache-Control` directives; `nil` without the field, which most replies and requests lack.
    var cacheControl: CacheControl? { self["Cache-Control"].map(CacheControl.init) }

    private static func isASCII(_ name: String) -> Bool { name.utf8.allSatisfy { $0 < 0x80 } }
}

extension [String: String] {
    /// Sets a header field, replacing it under any spelling of its name; `nil` removes it.
    mutating func setField(_ value: String?, named name: String) {
        for key in keys where key.caseInsensitiveCompare(name) == .orderedSame { self[key] = nil }
        self[name] = value
    }
}
