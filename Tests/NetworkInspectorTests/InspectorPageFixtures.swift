import Foundation

/// A snapshot as `/api/snapshot` serves it (inspector-contract.md), with one request of each kind the page
/// must show: a success, an error, a shared one, a retried one, a hostile one, a binary body, one in flight;
/// and a stream, two transfers and an outbox.
enum InspectorPageFixtures {
    /// The requests' IDs in the order they started.
    static let ids = ["ok", "failed", "shared", "retried", "hostile", "binary", "running"]

    /// What the hostile request carries in its URL, a header and its body: markup that would run if the
    /// page put it in the DOM as HTML.
    static let hostileBody =
        #"</script><script>document.title='pwned'</script><img src=x onerror="document.title='pwned'">"#

    static let snapshot = Data(
        #"""
        {"now": 2400, "maxRequests": 500, "maxBodyBytes": 65536, "dropped": 0,
         "requests": [
          {"id": "ok", "layer": "api", "method": "GET", "url": "https://api.example.com/v1/profile",
           "status": 200, "error": null, "start": 0, "end": 180, "bytesSent": 0, "bytesReceived": 1532,
           "cache": "network", "cacheReason": "no stored response", "sharedBy": 1, "retries": 0,
           "queuedBudget": 0, "queuedRateLimit": 0, "waitingOnPolicies": 4, "account": "alice",
           "phases": [{"name": "queued", "start": 0, "end": 2}, {"name": "policies", "start": 2, "end": 6},
                      {"name": "wire", "start": 6, "end": 160}, {"name": "decoding", "start": 160, "end": 172},
                      {"name": "delivered", "start": 172, "end": 180}],
           "attempts": [{"number": 1, "start": 6, "end": 160, "status": 200, "error": null,
             "requestHeaders": [["Accept", "application/json"], ["Authorization", "<redacted>"]],
             "responseHeaders": [["Content-Type", "application/json"], ["Cache-Control", "max-age=60"]],
             "curl": "curl -H 'Accept: application/json' -H 'Authorization: <redacted>' 'https://api.example.com/v1/profile'",
             "retryDelay": null}],
           "requestBody": null,
           "responseBody": {"size": 58, "truncated": false, "text": "{\"name\":\"Alice\",\"plan\":\"pro\",\"teams\":[\"ios\",\"web\"]}", "base64": null}},
          {"id": "failed", "layer": "api", "method": "POST", "url": "https://api.example.com/v1/orders",
           "status": null, "error": "The request timed out.", "start": 40, "end": 1040, "bytesSent": 74,
           "bytesReceived": 0, "cache": "off", "cacheReason": null, "sharedBy": 1, "retries": 0,
           "queuedBudget": 0, "queuedRateLimit": 0, "waitingOnPolicies": 5, "account": "alice",
           "phases": [{"name": "queued", "start": 40, "end": 45}, {"name": "policies", "start": 45, "end": 50},
                      {"name": "wire", "start": 50, "end": 1040}],
           "attempts": [{"number": 1, "start": 50, "end": 1040, "status": null, "error": "The request timed out.",
             "requestHeaders": [["Content-Type", "application/json"]], "responseHeaders": [],
             "curl": "curl -X POST -H 'Content-Type: application/json' --data-raw '{\"item\":42}' 'https://api.example.com/v1/orders'",
             "retryDelay": null}],
           "requestBody": {"size": 11, "truncated": false, "text": "{\"item\":42}", "base64": null},
           "responseBody": null},
          {"id": "shared", "layer": "api", "method": "GET", "url": "https://api.example.com/v1/feed?page=1",
           "status": 200, "error": null, "start": 200, "end": 520, "bytesSent": 0, "bytesReceived": 20480,
           "cache": "revalidated", "cacheReason": "stale after max-age=60; the origin answered 304",
           "sharedBy": 3, "retries": 0, "queuedBudget": 120, "queuedRateLimit": 0, "waitingOnPolicies": 2,
           "account": "alice",
           "phases": [{"name": "queued", "start": 200, "end": 320}, {"name": "policies", "start": 320, "end": 322},
                      {"name": "wire", "start": 322, "end": 500}, {"name": "decoding", "start": 500, "end": 515},
                      {"name": "delivered", "start": 515, "end": 520}],
           "attempts": [{"number": 1, "start": 322, "end": 500, "status": 304, "error": null,
             "requestHeaders": [["If-None-Match", "\"v7\""]], "responseHeaders": [["ETag", "\"v7\""]],
             "curl": "curl -H 'If-None-Match: \"v7\"' 'https://api.example.com/v1/feed?page=1'",
             "retryDelay": null}],
           "requestBody": null,
           "responseBody": {"size": 20480, "truncated": false, "text": "[{\"id\":1,\"title\":\"Hello\"}]", "base64": null}},
          {"id": "retried", "layer": "search", "method": "GET", "url": "https://search.example.com/v2/search?q=swift",
           "status": 200, "error": null, "start": 300, "end": 1900, "bytesSent": 0, "bytesReceived": 8800,
           "cache": "network", "cacheReason": "no-store", "sharedBy": 1, "retries": 1,
           "queuedBudget": 0, "queuedRateLimit": 250, "waitingOnPolicies": 1002, "account": "bob",
           "phases": [{"name": "queued", "start": 300, "end": 550}, {"name": "policies", "start": 550, "end": 552},
                      {"name": "wire", "start": 552, "end": 600}, {"name": "policies", "start": 600, "end": 1600},
                      {"name": "wire", "start": 1600, "end": 1850}, {"name": "decoding", "start": 1850, "end": 1890},
                      {"name": "delivered", "start": 1890, "end": 1900}],
           "attempts": [
            {"number": 1, "start": 552, "end": 600, "status": 503, "error": null,
             "requestHeaders": [["Accept", "application/json"]], "responseHeaders": [["Retry-After", "1"]],
             "curl": "curl 'https://search.example.com/v2/search?q=swift'", "retryDelay": 1000},
            {"number": 2, "start": 1600, "end": 1850, "status": 200, "error": null,
             "requestHeaders": [["Accept", "application/json"]], "responseHeaders": [["Content-Type", "application/json"]],
             "curl": "curl 'https://search.example.com/v2/search?q=swift'", "retryDelay": null}],
           "requestBody": null,
           "responseBody": {"size": 8800, "truncated": false, "text": "{\"hits\":12}", "base64": null}},
          {"id": "hostile", "layer": "<b>layer</b>", "method": "GET",
           "url": "https://evil.example/<img src=x onerror=alert(1)>?q=\"><script>alert(2)</script>",
           "status": 500, "error": null, "start": 700, "end": 820, "bytesSent": 0, "bytesReceived": 96,
           "cache": "network", "cacheReason": "<img src=x onerror=alert(3)>", "sharedBy": 1, "retries": 0,
           "queuedBudget": 0, "queuedRateLimit": 0, "waitingOnPolicies": 1, "account": "<i>mallory</i>",
           "phases": [{"name": "queued", "start": 700, "end": 701}, {"name": "policies", "start": 701, "end": 702},
                      {"name": "wire", "start": 702, "end": 810}, {"name": "decoding", "start": 810, "end": 815},
                      {"name": "delivered", "start": 815, "end": 820}],
           "attempts": [{"number": 1, "start": 702, "end": 810, "status": 500, "error": null,
             "requestHeaders": [["X-Note", "<img src=x onerror=alert(4)>"]],
             "responseHeaders": [["Content-Type", "text/html"]],
             "curl": "curl 'https://evil.example/<img src=x onerror=alert(1)>'", "retryDelay": null}],
           "requestBody": null,
           "responseBody": {"size": 96, "truncated": false, "text": "HOSTILE", "base64": null}},
          {"id": "binary", "layer": "api", "method": "GET", "url": "https://cdn.example.com/avatars/alice.png",
           "status": 200, "error": null, "start": 900, "end": 1200, "bytesSent": 0, "bytesReceived": 48213,
           "cache": "hit", "cacheReason": "fresh for max-age=3600", "sharedBy": 2, "retries": 0,
           "queuedBudget": 0, "queuedRateLimit": 0, "waitingOnPolicies": 0, "account": null,
           "phases": [{"name": "queued", "start": 900, "end": 901}, {"name": "decoding", "start": 901, "end": 1190},
                      {"name": "delivered", "start": 1190, "end": 1200}],
           "attempts": [],
           "requestBody": null,
           "responseBody": {"size": 48213, "truncated": true, "text": null, "base64": "iVBORw0KGgo="}},
          {"id": "running", "layer": "api", "method": "PUT", "url": "https://api.example.com/v1/settings",
           "status": null, "error": null, "start": 2000, "end": null, "bytesSent": 312, "bytesReceived": 0,
           "cache": "off", "cacheReason": null, "sharedBy": 1, "retries": 0,
           "queuedBudget": 0, "queuedRateLimit": 0, "waitingOnPolicies": 3, "account": "alice",
           "phases": [{"name": "queued", "start": 2000, "end": 2001}, {"name": "policies", "start": 2001, "end": 2004},
                      {"name": "wire", "start": 2004, "end": 2400}],
           "attempts": [{"number": 1, "start": 2004, "end": null, "status": null, "error": null,
             "requestHeaders": [["Content-Type", "application/json"]], "responseHeaders": [],
             "curl": "curl -X PUT 'https://api.example.com/v1/settings'", "retryDelay": null}],
           "requestBody": {"size": 312, "truncated": false, "text": "{\"theme\":\"dark\"}", "base64": null},
           "responseBody": null}
         ],
         "streams": [{"id": "s1", "url": "https://api.example.com/v1/events", "start": 100, "end": null,
                      "events": 14, "last": "{\"type\":\"ping\"}", "error": null}],
         "transfers": [
          {"id": "t1", "kind": "download", "url": "https://cdn.example.com/video.mp4", "bytes": 6291456,
           "total": 10485760, "offset": null, "state": "running"},
          {"id": "t2", "kind": "upload", "url": "https://upload.example.com/files/42", "bytes": 3145728,
           "total": 8388608, "offset": 2097152, "state": "running"}],
         "outbox": {"waiting": 2, "sending": 1, "deadLetters": 1,
          "items": [{"id": "o1", "method": "POST", "url": "https://api.example.com/v1/likes", "state": "sending", "attempts": 1},
                    {"id": "o2", "method": "POST", "url": "https://api.example.com/v1/likes", "state": "waiting", "attempts": 0},
                    {"id": "o3", "method": "DELETE", "url": "https://api.example.com/v1/posts/9", "state": "dead letter", "attempts": 5}]}
        }
        """#.replacingOccurrences(of: "HOSTILE", with: jsonEscaped(hostileBody)).utf8)

    private static func jsonEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
