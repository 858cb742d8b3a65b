import Foundation

/// A request's or a reply's body as the inspector keeps it: its first bytes only (the configuration's
/// most per body), and its full size.
struct BodyRecord: Encodable, Sendable {
    /// Bytes in the full body.
    let size: Int
    /// The bytes kept: the body, or its first bytes when it was longer than the limit.
    let kept: Data

    /// `body`'s first `limit` bytes, passed through `redact`; `nil` for an empty body (the page shows none).
    ///
    /// Redaction runs on the kept bytes only, so a large body costs no more than a short one: the
    /// redaction scanners read a cut body as far as it goes.
    init?(_ body: Data, limit: Int, redact: (Data) -> Data = { $0 }) {
        guard !body.isEmpty else { return nil }
        size = body.count
        // A copy, not a slice: a slice would keep the whole reply alive.
        let limit = max(0, limit)
        let redacted = redact(Data(body.prefix(limit)))
        kept = redacted.count > limit ? Data(redacted.prefix(limit)) : redacted
    }

    var truncated: Bool { kept.count < size }

    private enum CodingKeys: String, CodingKey {
        case size, truncated, text, base64
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let text = self.text
        try container.encode(size, forKey: .size)
        try container.encode(truncated, forKey: .truncated)
        try container.encode(text, forKey: .text)
        try container.encode(text == nil ? kept.base64EncodedString() : nil, forKey: .base64)
    }

    /// The kept bytes as UTF-8 text; a cut inside a character loses that character's first bytes (at most
    /// three) rather than making the body binary.
    var text: String? {
        var shown = kept[...]
        while true {
            if let text = String(data: shown, encoding: .utf8) { return text }
            guard truncated, kept.count - shown.count < 3, !shown.isEmpty else { return nil }
            shown = shown.dropLast()
        }
    }
}
