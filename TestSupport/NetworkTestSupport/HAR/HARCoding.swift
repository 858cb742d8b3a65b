import Foundation

extension KeyedDecodingContainer {
    /// The value at `key`, or `value` when the key is missing, `null` or of another type: for the fields
    /// an exporter may leave out or spell its own way.
    func lenient<T: Decodable>(_ key: Key, default value: T) -> T {
        lenient(key) ?? value
    }

    /// The value at `key`, or `nil` when the key is missing, `null` or of another type.
    func lenient<T: Decodable>(_ key: Key) -> T? {
        (try? decodeIfPresent(T.self, forKey: key)) ?? nil
    }

    /// A number at `key` that may be written as an integer or a decimal; `nil` when it is neither.
    func lenientNumber(_ key: Key) -> Double? {
        (try? decodeIfPresent(Double.self, forKey: key)) ?? nil
    }
}

/// HAR's text forms: ISO 8601 dates, and bodies as text or base64.
enum HARCoding {
    /// `2026-05-01T09:30:00.125Z`: ISO 8601 with milliseconds, as browsers write `startedDateTime`.
    static func string(from date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }

    /// A date in ISO 8601 with or without fractional seconds, in UTC or with an offset.
    static func date(from text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// Whether a body of this media type is written as text when it is valid UTF-8: `text/*`, JSON, XML,
    /// JavaScript, forms; and a body with no type. Anything else (images, `application/octet-stream`) is
    /// written as base64.
    static func isTextual(_ mimeType: String) -> Bool {
        let type = mimeType.lowercased()
        guard !type.isEmpty else { return true }
        return type.hasPrefix("text/")
            || ["json", "xml", "javascript", "x-www-form-urlencoded", "graphql", "yaml", "csv"].contains {
                type.contains($0)
            }
    }

    /// `body` as HAR writes it: the text, and `nil` for the encoding; or base64 and `"base64"` for a
    /// binary body or one of a binary type.
    static func text(of body: Data, mimeType: String) -> (text: String, encoding: String?) {
        if isTextual(mimeType), let text = String(data: body, encoding: .utf8) {
            return (text, nil)
        }
        return (body.base64EncodedString(), "base64")
    }

    /// The bytes of a body HAR wrote as `text` with `encoding` (`"base64"` or none); text that claims to
    /// be base64 but is not is read as UTF-8.
    static func body(text: String, encoding: String?) -> Data {
        if encoding?.lowercased() == "base64",
            let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters)
        {
            return data
        }
        return Data(text.utf8)
    }
}
