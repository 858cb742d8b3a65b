import Foundation

/// Reads a `Link` field (RFC 8288 §3): `<https://api.example.com/items?page=2>; rel="next", </x>; rel=last`.
/// Commas and semicolons in `<...>` and quoted strings belong to them; a link without a `<target>` that
/// is a URL is skipped up to the next comma.
enum LinkHeaderParser {
    static func links(in value: String, relativeTo base: URL?) -> [WebLink] {
        var scanner = Scanner(Array(value.unicodeScalars))
        var links: [WebLink] = []
        while !scanner.isAtEnd {
            scanner.skip { $0 == "," || $0 == " " || $0 == "\t" }
            guard !scanner.isAtEnd else { break }
            guard scanner.take("<") else {
                scanner.skipPastLink()
                continue
            }
            let target = scanner.read { $0 != ">" }
            guard scanner.take(">") else { break }
            var relations: [String] = []
            var parameters: [String: String] = [:]
            while true {
                scanner.skip { $0 == " " || $0 == "\t" }
                guard scanner.take(";") else { break }
                scanner.skip { $0 == " " || $0 == "\t" }
                let name = scanner.read { !["=", ";", ",", " ", "\t"].contains($0) }.lowercased()
                scanner.skip { $0 == " " || $0 == "\t" }
                var parameterValue = ""
                if scanner.take("=") {
                    scanner.skip { $0 == " " || $0 == "\t" }
                    parameterValue = scanner.readValue()
                }
                guard !name.isEmpty else { continue }
                // RFC 8288: a second occurrence of `rel` is ignored; so are later repeats of a parameter.
                if name == "rel" {
                    if relations.isEmpty {
                        relations = parameterValue.split(whereSeparator: { $0 == " " || $0 == "\t" }).map {
                            $0.lowercased()
                        }
                    }
                } else if parameters[name] == nil {
                    parameters[name] = parameterValue
                }
            }
            scanner.skipPastLink()
            guard let url = URL(string: target.trimmingCharacters(in: .whitespaces), relativeTo: base),
                url.scheme != nil
            else { continue }
            links.append(WebLink(url: url.absoluteURL, relations: relations, attributes: parameters))
        }
        return links
    }

    private struct Scanner {
        let scalars: [Unicode.Scalar]
        var index = 0

        init(_ scalars: [Unicode.Scalar]) {
            self.scalars = scalars
        }

        var isAtEnd: Bool { index >= scalars.count }

        mutating func take(_ scalar: Unicode.Scalar) -> Bool {
            guard !isAtEnd, scalars[index] == scalar else { return false }
            index += 1
            return true
        }

        mutating func skip(while predicate: (Unicode.Scalar) -> Bool) {
            while !isAtEnd, predicate(scalars[index]) { index += 1 }
        }

        mutating func read(while predicate: (Unicode.Scalar) -> Bool) -> String {
            var text = String.UnicodeScalarView()
            while !isAtEnd, predicate(scalars[index]) {
                text.append(scalars[index])
                index += 1
            }
            return String(text)
        }

        /// A token, or a quoted string with its backslash escapes undone.
        mutating func readValue() -> String {
            guard take("\"") else { return read { ![";", ",", " ", "\t"].contains($0) } }
            var text = String.UnicodeScalarView()
            while !isAtEnd {
                let scalar = scalars[index]
                index += 1
                if scalar == "\"" { break }
                if scalar == "\\", !isAtEnd {
                    text.append(scalars[index])
                    index += 1
                } else {
                    text.append(scalar)
                }
            }
            return String(text)
        }

        /// Moves past the next comma outside a quoted string or angle brackets: the start of the next link.
        mutating func skipPastLink() {
            var quoted = false
            var bracketed = false
            while !isAtEnd {
                let scalar = scalars[index]
                index += 1
                switch scalar {
                case "\\" where quoted: index += 1
                case "\"" where !bracketed: quoted.toggle()
                case "<" where !quoted: bracketed = true
                case ">" where !quoted: bracketed = false
                case "," where !quoted && !bracketed: return
                default: break
                }
            }
        }
    }
}
