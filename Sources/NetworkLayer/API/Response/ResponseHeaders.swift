import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A reply's header fields, looked up by name in any case: `headers["etag"]` finds `ETag`.
public struct ResponseHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields as the server named them.
    public let fields: [String: String]

    /// Headers with these fields.
    ///
    /// - Parameter fields: The fields, as the server named them.
    public init(_ fields: [String: String] = [:]) {
        self.fields = fields
    }

    /// Headers from a dictionary literal: `["ETag": "\"v2\""]`.
    ///
    /// - Parameter elements: The `(name, value)` pairs; of two with the same name, the last one wins.
    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// The value of the field `name`, compared without regard to case; `nil` if there is none.
    ///
    /// - Parameter name: The field's name, in any case.
    public subscript(name: String) -> String? {
        if let exact = fields[name] { return exact }
        return fields.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Iterates the fields as `(name, value)` pairs, in no particular order.
    public func makeIterator() -> Dictionary<String, String>.Iterator {
        fields.makeIterator()
    }

    /// Two sets of headers are equal when they have the same names (in any case) and values.
    ///
    /// - Parameters:
    ///   - lhs: Some headers.
    ///   - rhs: Other headers.
    public static func == (lhs: ResponseHeaders, rhs: ResponseHeaders) -> Bool {
        lhs.count == rhs.count && lhs.fields.allSatisfy { rhs[$0.key] == $0.value }
    }
}

extension ResponseHeaders {
    init(_ response: HTTPURLResponse) {
        let all = response.allHeaderFields
        var fields = [String: String](minimumCapacity: all.count)
        for case (let name as String, let value) in all {
            // Why not interpolate: `Any` would go through reflection for each field.
            fields[name] = value as? String ?? "\(value)"
        }
        self.fields = fields
    }
}
