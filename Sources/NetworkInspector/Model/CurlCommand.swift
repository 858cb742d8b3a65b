import Foundation

/// An attempt's curl command, written only when a page reads it (as a JSON string), from the parts the
/// record keeps anyway as redaction left them: an attempt nobody looks at costs no command. Redacted, it
/// reads as `NetworkLogger.curlCommand(for:credentialHeaders:)` writes it; with redaction off, as sent.
struct CurlCommand: Encodable, Sendable {
    let method: String
    /// The attempt's URL, as the record shows it.
    let url: String
    /// The headers, as the record shows them.
    let headers: [HeaderField]
    /// The body's first bytes, as the record keeps them.
    let body: BodyRecord?
    /// The most body bytes kept: a longer body says it was cut, in a shell comment at the end.
    let bodyLimit: Int
    /// Whether redaction is on: then the logger's form (no `-X` for a `GET`, a binary body's size).
    let isRedacted: Bool

    var text: String {
        var parts = ["curl"]
        if !isRedacted || method != "GET" { parts += ["-X", Self.quoted(method)] }
        parts.append(Self.quoted(url))
        for header in headers.sorted(by: { $0.name < $1.name }) {
            parts += ["-H", Self.quoted("\(header.name): \(header.value)")]
        }
        guard let body else { return parts.joined(separator: " ") }
        if let text = body.text {
            // Not `--data-binary`, which reads a body starting with `@` as a file to send instead.
            parts += ["--data-raw", Self.quoted(text)]
        } else {
            parts.append(
                "--data-binary @-" + (isRedacted ? " # \(body.kept.count) bytes of binary data" : ""))
        }
        let cut = body.size > bodyLimit ? " # body cut at \(bodyLimit) of \(body.size) bytes" : ""
        return parts.joined(separator: " ") + cut
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// `text` in single quotes for a POSIX shell: a `'` inside becomes `'\''`.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
