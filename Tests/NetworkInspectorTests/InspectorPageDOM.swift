import Foundation

/// Reads the parts of the inspector page's DOM the tests check, from the HTML a browser serialised
/// (`--dump-dom`): the page builds them with known attribute orders and classes.
struct InspectorPageDOM {
    let html: String

    /// One row of `table#requests tbody`.
    struct Row {
        let id: String
        let classes: [String]
        let html: String

        /// The text of the cell with class `name` (its first class), as the DOM serialised it.
        func cell(_ name: String) -> String? {
            InspectorPageDOM.firstMatch(#"<td class="\#(name)(?: [^"]*)?"[^>]*>(.*?)</td>"#, in: html)
        }
    }

    /// One `#waterfall .bar[data-id]` and the `data-phase` of each of its segments, in order.
    struct Bar {
        let id: String
        let phases: [String]
    }

    var rows: [Row] {
        guard let table = section(from: #"<table id="requests">"#, to: "</table>"),
            let body = table.range(of: "<tbody>")
        else { return [] }
        return Self.matches(#"<tr\b([^>]*)>(.*?)</tr>"#, in: String(table[body.upperBound...])).compactMap {
            guard let id = Self.firstMatch(#"data-id="([^"]*)""#, in: $0[0]) else { return nil }
            let classes = Self.firstMatch(#"class="([^"]*)""#, in: $0[0]) ?? ""
            return Row(id: id, classes: classes.split(separator: " ").map(String.init), html: $0[1])
        }
    }

    var bars: [Bar] {
        guard let waterfall = section(from: #"<div id="waterfall">"#, to: "</section>") else { return [] }
        return waterfall.components(separatedBy: #"<div class="bar"#).dropFirst().compactMap { piece in
            guard let id = Self.firstMatch(#"data-id="([^"]*)""#, in: piece) else { return nil }
            return Bar(id: id, phases: Self.matches(#"data-phase="([^"]*)""#, in: piece).map { $0[0] })
        }
    }

    /// Each row of the transfers section (`section#transfers tbody`): its `data-id` and its cells' inner
    /// HTML, in order.
    var transfers: [(id: String, cells: [String])] {
        guard let table = section(from: #"<section id="transfers">"#, to: "</section>"),
            let body = table.range(of: "<tbody>")
        else { return [] }
        return Self.matches(#"<tr\b([^>]*)>(.*?)</tr>"#, in: String(table[body.upperBound...])).compactMap {
            guard let id = Self.firstMatch(#"data-id="([^"]*)""#, in: $0[0]) else { return nil }
            return (id, Self.matches(#"<td\b[^>]*>(.*?)</td>"#, in: $0[1]).map { $0[0] })
        }
    }

    /// The `data-id` of `#detail`, and its inner HTML; nil when the detail view is closed.
    var detail: (id: String, html: String)? {
        guard let aside = section(from: #"<aside id="detail""#, to: "</aside>"),
            !aside.hasPrefix(#"<aside id="detail" hidden"#),
            let id = Self.firstMatch(#"^<aside id="detail"[^>]*data-id="([^"]*)""#, in: aside)
        else { return nil }
        return (id, aside)
    }

    /// The text of the element `<tag id="id">`, up to its first closing tag.
    func text(ofElement id: String, tag: String = "span") -> String? {
        Self.firstMatch(#"<\#(tag) id="\#(id)"[^>]*>(.*?)</\#(tag)>"#, in: html)
    }

    private func section(from start: String, to end: String) -> String? {
        guard let from = html.range(of: start),
            let to = html.range(of: end, range: from.upperBound..<html.endIndex)
        else { return nil }
        return String(html[from.lowerBound..<to.upperBound])
    }

    static func firstMatch(_ pattern: String, in text: String) -> String? {
        matches(pattern, in: text).first?.first
    }

    /// The capture groups of every match of `pattern`, dot matching line breaks.
    static func matches(_ pattern: String, in text: String) -> [[String]] {
        guard
            let expression = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators])
        else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return expression.matches(in: text, range: range).map { match in
            (1..<match.numberOfRanges).map { index in
                Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
            }
        }
    }
}
