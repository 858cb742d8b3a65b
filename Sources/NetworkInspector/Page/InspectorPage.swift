import Foundation

/// The inspector's one HTML page: script and style inline, no external resource.
///
/// The snapshot rides in the page itself, in a JSON script element, so the page renders what the
/// inspector holds before its load event; live updates follow over server-sent events.
enum InspectorPage {
    /// The page for `snapshot` (the JSON of `/api/snapshot`), its API calls signed with `token`.
    static func html(snapshot: Data, token: String) -> Data {
        // A reply body may contain "</script>": escaping "<" keeps the JSON inside its element.
        let json = String(decoding: snapshot, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
        let page = """
            <!doctype html>
            <html><head><meta charset="utf-8"><title>NetworkInspector</title></head>
            <body data-token="\(token)">
            <script id="snapshot" type="application/json">\(json)</script>
            </body></html>
            """
        return Data(page.utf8)
    }
}
