import Foundation

/// The inspector's one HTML page: script and style inline, no external resource.
///
/// The snapshot rides in the page itself, in a JSON script element, so the page renders what the
/// inspector holds before its load event; live updates follow over server-sent events. The script puts
/// every value from the app into the DOM as text, never as markup, and the page's content security policy
/// runs only its own script (a nonce per page), so a hostile URL or reply body shows and does not run.
enum InspectorPage {
    /// The page for `snapshot` (the JSON of `/api/snapshot`), its API calls signed with `token`.
    static func html(snapshot: Data, token: String) -> Data {
        // A reply body may contain "</script>": escaping "<" keeps the JSON inside its element.
        let json = String(decoding: snapshot, as: UTF8.self).replacingOccurrences(of: "<", with: "\\u003c")
        let nonce = UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let policy = [
            "default-src 'none'", "script-src 'nonce-\(nonce)'", "style-src 'nonce-\(nonce)'",
            "connect-src 'self'", "base-uri 'none'", "form-action 'none'",
        ].joined(separator: "; ")
        let page = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <meta http-equiv="Content-Security-Policy" content="\(policy)">
            <title>NetworkInspector</title>
            <style nonce="\(nonce)">\(style)</style>
            </head>
            <body data-token="\(attribute(token))">
            \(body)
            <script id="snapshot" type="application/json">\(json)</script>
            <script nonce="\(nonce)">\(script)</script>
            </body>
            </html>
            """
        return Data(page.utf8)
    }

    /// `value` escaped for a double-quoted attribute.
    private static func attribute(_ value: String) -> String {
        value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// The page's fixed markup; the script fills the table, the waterfall, the detail and the sections.
    private static let body = """
        <header id="toolbar">
          <h1>NetworkInspector</h1>
          <input id="filter" type="search" placeholder="Filter by URL, method or status" aria-label="Filter"
            autocomplete="off" spellcheck="false">
          <button id="pause" type="button" aria-pressed="false">Pause</button>
          <span id="waiting" hidden></span>
          <button id="clear" type="button">Clear</button>
          <button id="export" type="button" title="A HAR 1.2 file of the requests shown">Export HAR</button>
          <span id="summary"></span>
          <span id="connection" class="offline">Connecting…</span>
        </header>
        <div id="fatal" hidden></div>
        <noscript><p class="empty">The inspector's page needs JavaScript.</p></noscript>
        <main>
          <div id="overview">
            <table id="requests">
              <colgroup><col class="method"><col><col class="status"><col class="duration"><col class="size">
                <col class="cache"><col class="shared"><col class="retries"><col class="budget"><col class="rate">
                <col class="account"></colgroup>
              <thead>
                <tr><th rowspan="2">Method</th><th rowspan="2">URL</th><th rowspan="2">Status</th>
                  <th rowspan="2" class="num">Duration</th><th rowspan="2" class="num">Size</th>
                  <th rowspan="2">Cache</th>
                  <th rowspan="2" class="num" title="Callers served by this one request">Shared</th>
                  <th rowspan="2" class="num">Retries</th><th colspan="2" class="group">Queued</th>
                  <th rowspan="2" class="account">Account</th></tr>
                <tr class="group"><th class="budget num" title="Waiting for the origin's budget of requests in flight">budget</th>
                  <th class="rate num" title="Waiting for the rate limiter">rate limit</th></tr>
              </thead>
              <tbody></tbody>
            </table>
            <p id="no-requests" class="empty" hidden></p>
            <section id="timeline">
              <h2>Waterfall</h2>
              <div id="legend"></div>
              <div id="axis"></div>
              <div id="waterfall"></div>
            </section>
            <section id="streams" hidden><h2>Streams</h2><div class="content"></div></section>
            <section id="transfers" hidden><h2>Transfers</h2><div class="content"></div></section>
            <section id="outbox" hidden><h2>Outbox</h2><div class="content"></div></section>
          </div>
          <aside id="detail" hidden></aside>
        </main>
        """
}
