/// Makes text safe to show or log: URL user-info and query and fragment values become a marker (names
/// stay), and control characters are escaped so one value can't start a new line. It reads text, not
/// parsed URLs, because what needs it most doesn't parse (an ``NetworkError/invalidURL(_:)`` string, an
/// error description with a URL inside).
enum Redaction {
    /// What a secret is replaced with; its `<` and `>` end a value in ``text(_:)``, so redacting twice
    /// changes nothing.
    static let marker = "<redacted>"

    /// What a `name=value` pair's value becomes, given both as written; `nil` keeps it.
    typealias Replacement = (_ name: String, _ value: String) -> String?

    static func everyValue(_: String, _: String) -> String? { marker }

    /// `url` read as one URL, which may be invalid (spaces, no host, an unknown scheme):
    /// `https://user:secret@host/p?token=abc#access_token=xyz` becomes
    /// `https://<redacted>@host/p?token=<redacted>#access_token=<redacted>`. `replace` decides the
    /// query's (and fragment's) non-empty values; `hidingFragment` hides a whole non-empty fragment.
    static func url(_ url: String, hidingFragment: Bool = false, replacing replace: Replacement = everyValue)
        -> String
    {
        guard url.unicodeScalars.contains(where: isURLSyntax) else { return url }
        var output = String.UnicodeScalarView()
        appendRedactingURL(Array(url.unicodeScalars)[...], hidingFragment, replace, to: &output)
        return String(output)
    }

    /// Free text that may contain URLs: every word (between whitespace, quotes and angle brackets) is
    /// redacted as ``url(_:)`` redacts a URL.
    static func text(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isURLSyntax) else { return text }
        let scalars = Array(text.unicodeScalars)
        var output = String.UnicodeScalarView()
        var wordStart = scalars.startIndex
        for index in scalars.indices where endsWord(scalars[index]) {
            appendRedactingURL(scalars[wordStart..<index], false, everyValue, to: &output)
            output.append(scalars[index])
            wordStart = index + 1
        }
        appendRedactingURL(scalars[wordStart...], false, everyValue, to: &output)
        return String(output)
    }

    /// `text` in double quotes with `"`, `\` and every control character escaped, line and paragraph
    /// separators included (`debugDescription` leaves NEL and U+2028, which some log viewers break on).
    static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\0": output += "\\0"
            case _
            where scalar.properties.generalCategory == .control || scalar == "\u{2028}"
                || scalar == "\u{2029}":
                output += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    private typealias Scalars = ArraySlice<Unicode.Scalar>

    /// Without any of these characters there is nothing to redact.
    private static func isURLSyntax(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "@" || scalar == "?" || scalar == "#"
    }

    private static func endsWord(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isWhitespace || scalar == "\"" || scalar == "'" || scalar == "`" || scalar == "<"
            || scalar == ">"
    }

    private static func appendRedactingURL(
        _ url: Scalars, _ hidingFragment: Bool, _ replace: Replacement,
        to output: inout String.UnicodeScalarView
    ) {
        guard url.contains(where: isURLSyntax) else { return output.append(scalars: url) }
        if let (start, at) = userInfoPastTheAuthority(url) {
            output.append(scalars: url[..<start])
            output.append(scalars: marker.unicodeScalars)
            return appendRedactingURL(url[at...], hidingFragment, replace, to: &output)
        }
        let hash = url.firstIndex(of: "#")
        let beforeFragment = url[..<(hash ?? url.endIndex)]
        let question = beforeFragment.firstIndex(of: "?")
        appendRedactingUserInfo(beforeFragment[..<(question ?? beforeFragment.endIndex)], to: &output)
        if let question {
            output.append("?")
            appendRedactingValues(beforeFragment[(question + 1)...], to: &output, replacing: replace)
        }
        if let hash {
            output.append("#")
            // An anchor such as `#section-2` holds no `name=value` pair: its values' walk writes it unchanged.
            let fragment = url[(hash + 1)...]
            if hidingFragment, !fragment.isEmpty {
                output.append(scalars: marker.unicodeScalars)
            } else {
                appendRedactingValues(fragment, to: &output, replacing: replace)
            }
        }
    }

    /// Redacts everything before the authority's last `@`; the authority ends at the first `/` or `\`
    /// (which some parsers read as `/`).
    private static func appendRedactingUserInfo(
        _ head: Scalars, to output: inout String.UnicodeScalarView
    ) {
        let start = authorityStart(head)
        let rest = head[(start ?? head.startIndex)...]
        let authority = rest[..<(rest.firstIndex { $0 == "/" || $0 == "\\" } ?? rest.endIndex)]
        // Without a scheme or `//`, only `user:password@` is user-info: `name@host` is an e-mail address.
        guard let at = authority.lastIndex(of: "@"), start != nil || authority[..<at].contains(":") else {
            return output.append(scalars: head)
        }
        output.append(scalars: head[..<rest.startIndex])
        output.append(scalars: marker.unicodeScalars)
        output.append(scalars: head[at...])
    }

    /// Where user-info holding `/`, `?` or `#` (`https://alice:pa#ss@host/`) starts, and its `@`: the rule
    /// above would stop at that character and show the password. Such user-info is a name without
    /// delimiters, a `:` not followed by a port, then anything up to the last `@`.
    private static func userInfoPastTheAuthority(_ url: Scalars) -> (start: Int, at: Int)? {
        guard let start = authorityStart(url) else { return nil }
        let isDelimiter = { (scalar: Unicode.Scalar) in
            scalar == "/" || scalar == "\\" || scalar == "?" || scalar == "#"
        }
        let rest = url[start...]
        guard let at = rest.lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":"),
            !rest[..<colon].contains(where: isDelimiter), rest[colon..<at].contains(where: isDelimiter)
        else { return nil }
        // `host:8443/x?email=a@b` is a port, not a password: the usual rule reads that URL.
        let afterColon = rest[(colon + 1)...]
        let port = afterColon[..<(afterColon.firstIndex(where: isDelimiter) ?? afterColon.endIndex)]
        if !port.isEmpty, port.allSatisfy({ $0.properties.numericType == .decimal }) { return nil }
        return (start, at)
    }

    private static func authorityStart(_ url: Scalars) -> Int? {
        if let separator = url.indices.first(where: { url[$0...].starts(with: [":", "/", "/"]) }) {
            return separator + 3
        }
        return url.starts(with: ["/", "/"]) ? url.startIndex + 2 : nil
    }

    /// `a=1&b&c=` becomes `a=<redacted>&b&c=`: non-empty values are replaced as `replace` says.
    static func appendRedactingValues(
        _ parameters: ArraySlice<Unicode.Scalar>, to output: inout String.UnicodeScalarView,
        replacing replace: Replacement = everyValue
    ) {
        for (index, pair) in parameters.split(separator: "&", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { output.append("&") }
            guard let equals = pair.firstIndex(of: "="), equals + 1 < pair.endIndex,
                let replacement = replace(
                    String(scalars: pair[..<equals]), String(scalars: pair[(equals + 1)...]))
            else {
                output.append(scalars: pair)
                continue
            }
            output.append(scalars: pair[...equals])
            output.append(scalars: replacement.unicodeScalars)
        }
    }
}

extension String.UnicodeScalarView {
    /// Appends `scalars` one by one: the standard library's `append(contentsOf:)`, not specialized for a
    /// slice, allocates for each scalar it reads (a hundred allocations for one short URL).
    mutating func append(scalars: some Sequence<Unicode.Scalar>) {
        for scalar in scalars { append(scalar) }
    }
}

extension String {
    /// `scalars` as a string, without the allocation per scalar of the generic initializers.
    init(scalars: some Sequence<Unicode.Scalar>) {
        var view = UnicodeScalarView()
        view.append(scalars: scalars)
        self.init(view)
    }
}
