/// Redacts credential-named fields (`client_secret=…`) in an `application/x-www-form-urlencoded` body,
/// as OAuth token requests send. The content type isn't at hand where bodies are logged, so the shape
/// decides: an `=` and no whitespace, quotes or brackets. Everything else stays byte for byte.
enum FormRedaction {
    /// `nil` when `text` isn't form-shaped; `names` are compared as ``Credentials/comparable(_:)``.
    static func redacted(_ text: String, names: Set<String>) -> String? {
        guard text.utf8.contains(UInt8(ascii: "=")), !text.utf8.contains(where: isNotForm) else { return nil }
        var output = String.UnicodeScalarView()
        Redaction.appendRedactingValues(Array(text.unicodeScalars)[...], to: &output) { name, _ in
            let name = name.replacingOccurrences(of: "+", with: " ")
            return names.contains(Credentials.comparable(name.removingPercentEncoding ?? name))
                ? Redaction.marker : nil
        }
        return String(output)
    }

    private static func isNotForm(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), 0x09, 0x0A, 0x0D, UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["),
            UInt8(ascii: "<"):
            true
        default: false
        }
    }
}
