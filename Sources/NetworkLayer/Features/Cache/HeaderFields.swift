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

    var isEmpty: Bool { storage.isEmpty }
}
