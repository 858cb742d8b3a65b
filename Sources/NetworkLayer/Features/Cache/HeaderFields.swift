import Foundation

/// Header fields indexed by lower-cased name, for the cache's many lookups per request: built once, then
/// each lookup is one dictionary access instead of a case-insensitive scan.
struct HeaderFields: ExpressibleByDictionaryLiteral {
    private let storage: [String: String]

    init(_ fields: [String: String]) {
        var storage: [String: String] = [:]
        storage.reserveCapacity(fields.count)
        for (name, value) in fields { storage[name.lowercased()] = value }
        self.storage = storage
    }

    init(dictionaryLiteral elements: (String, String)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    subscript(name: String) -> String? { storage[name.lowercased()] }

    /// The `Cache-Control` directives; `nil` without the field, which most replies and requests lack.
    var cacheControl: CacheControl? { self["Cache-Control"].map(CacheControl.init) }
}

extension [String: String] {
    /// Sets a header field, replacing it under any spelling of its name; `nil` removes it.
    mutating func setField(_ value: String?, named name: String) {
        for key in keys where key.caseInsensitiveCompare(name) == .orderedSame { self[key] = nil }
        self[name] = value
    }
}
