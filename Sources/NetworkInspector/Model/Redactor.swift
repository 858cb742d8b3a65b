import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How the inspector writes URLs, headers, bodies and curl commands: as ``NetworkLogger`` redacts them
/// (the layer's one credential list, and the request's layer's own names), or as they are when the app
/// turned redaction off for local debugging.
struct Redactor: Sendable {
    /// `nil` when redaction is off.
    private let logger: NetworkLogger?

    init(redacts: Bool) {
        logger = redacts ? NetworkLogger(level: .full, sink: { _ in }) : nil
    }

    func url(_ url: URL?) -> String {
        guard let logger else { return url?.absoluteString ?? "" }
        return url == nil ? "" : logger.redacted(url)
    }

    /// `[name, value]` pairs sorted by name, in any case.
    func headers(_ fields: [String: String], credentialHeaders: Set<String>) -> [[String]] {
        fields.sorted { $0.key.lowercased() < $1.key.lowercased() }.map { name, value in
            let shown =
                logger?.redacted(headerValue: value, of: name, credentialHeaders: credentialHeaders) ?? value
            return [name, shown]
        }
    }

    func body(_ body: Data, credentialHeaders: Set<String>) -> Data {
        logger?.redacted(body: body, credentialHeaders: credentialHeaders) ?? body
    }

    /// `request` as a curl command, with the first `limit` bytes of its body: a body cut short says so
    /// in a shell comment at the end.
    func curl(_ request: URLRequest, keeping limit: Int, credentialHeaders: Set<String>) -> String {
        var request = request
        let size = request.httpBody?.count ?? 0
        if size > limit { request.httpBody = request.httpBody?.prefix(limit) }
        let cut = size > limit ? " # body cut at \(limit) of \(size) bytes" : ""
        // A logger always hides the library's credential headers: with redaction off it can't write this.
        guard let logger else { return Self.plainCurl(request) + cut }
        return logger.curlCommand(for: request, credentialHeaders: credentialHeaders) + cut
    }

    /// `request` as a curl command with nothing hidden, for local debugging.
    private static func plainCurl(_ request: URLRequest) -> String {
        func quoted(_ text: String) -> String {
            "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        var parts = [
            "curl", "-X", quoted(request.httpMethod ?? "GET"), quoted(request.url?.absoluteString ?? ""),
        ]
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key }) {
            parts += ["-H", quoted("\(name): \(value)")]
        }
        if let body = request.httpBody, !body.isEmpty {
            parts +=
                String(data: body, encoding: .utf8).map { ["--data-raw", quoted($0)] } ?? ["--data-binary @-"]
        }
        return parts.joined(separator: " ")
    }
}
