import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkLogger {
    /// `request` as a curl command, redacted as this logger redacts, each part quoted for a POSIX shell;
    /// a body that is not UTF-8 text is left out with a comment giving its size.
    ///
    /// ```swift
    /// let command = NetworkLogger().curlCommand(for: request)
    /// // curl -X 'POST' 'https://api.example.com/v1/items' -H 'Authorization: <redacted>' --data-raw '{"id":1}'
    /// ```
    ///
    /// - Parameters:
    ///   - request: Any request, such as the one a monitor receives in ``NetworkMonitor/didBuild(_:for:)``.
    ///   - credentialHeaders: More header names (lowercased) whose values are redacted: pass the event's
    ///     ``MonitoredRequest/credentialHeaders``, the names its layer's redirect policy adds.
    /// - Returns: One line, ready to paste into a shell.
    public func curlCommand(for request: URLRequest, credentialHeaders: Set<String> = []) -> String {
        let credentialHeaders = Set(credentialHeaders.map { $0.lowercased() })
        var parts = ["curl"]
        let method = request.httpMethod ?? "GET"
        if method != "GET" { parts += ["-X", Self.quoted(method)] }
        parts.append(Self.quoted(redacted(request.url)))
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            let shown = redacted(headerValue: value, of: name, credentialHeaders: credentialHeaders)
            parts += ["-H", Self.quoted("\(name): \(shown)")]
        }
        if let body = request.httpBody.map({ redacted(body: $0, credentialHeaders: credentialHeaders) }),
            !body.isEmpty
        {
            if let text = String(data: body, encoding: .utf8) {
                // Not `--data-binary`, which reads a body starting with `@` as a file to send instead.
                parts += ["--data-raw", Self.quoted(text)]
            } else {
                parts.append("--data-binary @- # \(body.count) bytes of binary data")
            }
        }
        return parts.joined(separator: " ")
    }

    /// `text` in single quotes for a POSIX shell: a `'` inside becomes `'\''`.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
