import Foundation

/// Percent-encoding for query strings and form bodies.
enum PercentEncoding {
    /// RFC 3986's unreserved characters, so `+`, `&`, `=`, `/` in a value stay data (most servers read `+`
    /// as a space).
    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? ""
    }

    /// Pairs sorted by key (the same parameters give the same URL), then `items` in order (names may repeat;
    /// no value gives the name alone).
    static func query(_ parameters: [String: String], _ items: [URLQueryItem] = []) -> String {
        let sorted = parameters.sorted { $0.key < $1.key }.map { "\(encode($0.key))=\(encode($0.value))" }
        let listed = items.map { item in
            item.value.map { "\(encode(item.name))=\(encode($0))" } ?? encode(item.name)
        }
        return (sorted + listed).joined(separator: "&")
    }
}
