import Foundation

/// Percent-encoding for query strings and form bodies.
enum PercentEncoding {
    /// RFC 3986's unreserved characters: everything else is encoded, so `+`, `&`, `=` and `/` in a value
    /// reach the server as data, not syntax (an unencoded `+` is read as a space by most servers).
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func encode(_ text: String) -> String {
        // Encoding a valid Swift string with a non-empty allowed set cannot fail; the fallback is unreachable.
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// `key=value` pairs joined by `&`, sorted by key so the same parameters always give the same URL,
    /// then `items` in their own order (a name may repeat; an item without a value is its name alone).
    static func query(_ parameters: [String: String], _ items: [URLQueryItem] = []) -> String {
        let sorted = parameters.sorted { $0.key < $1.key }.map { "\(encode($0.key))=\(encode($0.value))" }
        let listed = items.map { item in
            item.value.map { "\(encode(item.name))=\(encode($0))" } ?? encode(item.name)
        }
        return (sorted + listed).joined(separator: "&")
    }
}
