import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLRequest {
    /// Sets `fields` in order, in one write: names compared without regard to case, a later field
    /// replacing an earlier one (or one already set) of the same name, as `setValue(_:forHTTPHeaderField:)`
    /// would leave them.
    ///
    /// FoundationNetworking's `setValue` rebuilds the whole header dictionary on each call, comparing
    /// every name with Foundation's case-insensitive comparison: about 13,000 instructions a field
    /// (callgrind), a cost every request paid for each of its headers. Names are stored as `setValue`
    /// stores them (``PlatformSession/storedHeaderName(_:)``). Call it only with
    /// valid field names (RFC 9110 tokens, so ASCII): the builder checks them first.
    mutating func setHeaderFields(_ fields: [(name: String, value: String)]) {
        guard !fields.isEmpty else { return }
        var headers = allHTTPHeaderFields ?? [:]
        var storedNames = [String: String](minimumCapacity: headers.count + fields.count)
        for name in headers.keys { storedNames[name.lowercased()] = name }
        for (name, value) in fields {
            let key = name.lowercased()
            if let old = storedNames[key] { headers[old] = nil }
            let stored = PlatformSession.storedHeaderName(name)
            headers[stored] = value
            storedNames[key] = stored
        }
        allHTTPHeaderFields = headers
    }
}
