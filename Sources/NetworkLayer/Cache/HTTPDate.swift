import Foundation

/// HTTP dates (RFC 9110 §5.6.7): IMF-fixdate to write, and the two obsolete forms as well to read.
enum HTTPDate {
    private static let formats = [
        "EEE, dd MMM yyyy HH:mm:ss 'GMT'",  // IMF-fixdate
        "EEEE, dd-MMM-yy HH:mm:ss 'GMT'",  // RFC 850
        "EEE MMM d HH:mm:ss yyyy",  // asctime
    ]

    /// A date, or `nil` for a value in none of the three forms (which RFC 9111 reads as "in the past"
    /// where it matters, for `Expires`).
    static func parse(_ text: String?) -> Date? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        // DateFormatter is not safe to share between threads on every platform we support: one per call.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        let collapsed = text.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in formats {
            formatter.dateFormat = format
            if let date = formatter.date(from: collapsed) { return date }
        }
        return nil
    }

    /// The IMF-fixdate form, as `If-Modified-Since` and `Date` carry it.
    static func string(from date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = formats[0]
        return formatter.string(from: date)
    }
}
