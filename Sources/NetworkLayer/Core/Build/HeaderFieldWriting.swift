import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Sets `fields` in one write, later ones replacing earlier (or set) ones of the same name in any case,
    /// named as `setValue` stores them (``PlatformFacts/capitalizesHeaderNames``). Why: FoundationNetworking's
    /// `setValue` rebuilds the whole dictionary per field (see <doc:Performance>). Names must be valid
    /// RFC 9110 tokens (ASCII): the builder checks them first.
    mutating func setHeaderFields(_ fields: [(name: String, value: String)], facts: PlatformFacts = .current)
    {
        guard !fields.isEmpty else { return }
        var headers = allHTTPHeaderFields ?? [:]
        var storedNames = [String: String](minimumCapacity: headers.count + fields.count)
        for name in headers.keys { storedNames[name.lowercased()] = name }
        let capitalizes = facts.capitalizesHeaderNames
        for (name, value) in fields {
            let stored = capitalizes ? name.capitalized : name
            if let old = storedNames.updateValue(stored, forKey: name.lowercased()) { headers[old] = nil }
            headers[stored] = value
        }
        allHTTPHeaderFields = headers
    }
}
