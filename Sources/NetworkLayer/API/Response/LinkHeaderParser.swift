import Foundation

/// Reads a `Link` field (RFC 8288 §3): `<https://api.example.com/items?page=2>; rel="next", </x>; rel=last`.
/// Commas and semicolons in `<...>` and quoted strings belong to them; a link without a `<target>` that
/// is a URL is skipped.
enum LinkHeaderParser {
    static func links(in value: String, relativeTo base: URL?) -> [WebLink] {
        split(value[...], at: ",").compactMap { link(in: $0, relativeTo: base) }
    }

    private static let blanks = CharacterSet(charactersIn: " \t")

    private static func link(in text: Substring, relativeTo base: URL?) -> WebLink? {
        let parts = split(text, at: ";")
        let head = parts[0].trimmingCharacters(in: blanks)
        guard head.hasPrefix("<"), let close = head.firstIndex(of: ">"),
            let url = URL(
                string: head[head.index(after: head.startIndex)..<close].trimmingCharacters(in: .whitespaces),
                relativeTo: base),
            url.scheme != nil
        else { return nil }
        var relations: [String]?
        var attributes: [String: String] = [:]
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = pair[0].trimmingCharacters(in: blanks).lowercased()
            let value = pair.count > 1 ? unquoted(pair[1].trimmingCharacters(in: blanks)) : ""
            // RFC 8288: a second occurrence of `rel` is ignored; so are later repeats of a parameter.
            if name == "rel" {
                relations =
                    relations
                    ?? value.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { $0.lowercased() }
            } else if !name.isEmpty, attributes[name] == nil {
                attributes[name] = value
            }
        }
        return WebLink(url: url.absoluteURL, relations: relations ?? [], attributes: attributes)
    }

    /// `text` cut at each `separator` outside quoted strings and `<...>`.
    private static func split(_ text: Substring, at separator: Character) -> [Substring] {
        var parts: [Substring] = []
        var (start, quoted, bracketed, escaped) = (text.startIndex, false, false, false)
        for index in text.indices {
            let character = text[index]
            if escaped {
                escaped = false
                continue
            }
            switch character {
            case "\\" where quoted: escaped = true
            case "\"" where !bracketed: quoted.toggle()
            case "<" where !quoted: bracketed = true
            case ">" where !quoted: bracketed = false
            case separator where !quoted && !bracketed:
                parts.append(text[start..<index])
                start = text.index(after: index)
            default: break
            }
        }
        return parts + [text[start...]]
    }

    /// A token as it is, or a quoted string with its backslash escapes undone.
    private static func unquoted(_ value: String) -> String {
        guard value.hasPrefix("\"") else { return value }
        var (text, escaped) = ("", false)
        for character in value.dropFirst() {
            if !escaped, character == "\"" { break }
            escaped = !escaped && character == "\\"
            if !escaped { text.append(character) }
        }
        return text
    }
}
