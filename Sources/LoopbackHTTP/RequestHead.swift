/// The head of one HTTP/1.x request: request line and header fields, as sent.
package struct RequestHead: Sendable {
    package var method: String
    package var target: String
    package var version: String
    package var headers: [(name: String, value: String)]
    /// The request line and header section exactly as received, through the empty line.
    package var raw: [UInt8] = []

    /// The values of every field named `name` (case-insensitive), joined by ", ".
    package func header(_ name: String) -> String? {
        HeaderLookup.value(of: name, in: headers)
    }

    /// Whether the connection stays open after this request, by HTTP/1.1's rules: HTTP/1.0's opt-in
    /// keep-alive is not offered.
    package var wantsKeepAlive: Bool {
        if version == "HTTP/1.0" { return false }
        let connection = header("Connection")?.lowercased() ?? ""
        return !connection.split(separator: ",").contains { $0.trimmingSpaces() == "close" }
    }
}

/// Case-insensitive header lookup shared by requests and responses.
package enum HeaderLookup {
    /// The values of every field named `name`, joined by ", ", or `nil` if there is none.
    package static func value(of name: String, in headers: [(name: String, value: String)]) -> String? {
        let wanted = name.lowercased()
        let values = headers.filter { $0.name.lowercased() == wanted }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ", ")
    }
}

extension StringProtocol {
    /// The string without leading and trailing spaces and tabs.
    package func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
