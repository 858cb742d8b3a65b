/// Status lines and the small replies a server sends when it cannot serve a request.
package enum HTTPStatus {
    /// A small plain-text reply for a request that could not be read; the connection then closes.
    package static func errorReply(status: Int, detail: String) -> [UInt8] {
        let text = "\(reasonPhrase(status)): \(detail)\n"
        let head =
            "HTTP/1.1 \(status) \(reasonPhrase(status))\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: \(text.utf8.count)\r\nConnection: close\r\n\r\n"
        return Array((head + text).utf8)
    }

    private static let phrases: [Int: String] = [
        100: "Continue", 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content",
        206: "Partial Content", 301: "Moved Permanently", 302: "Found", 303: "See Other",
        304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 400: "Bad Request",
        401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 405: "Method Not Allowed",
        408: "Request Timeout", 409: "Conflict", 410: "Gone", 413: "Content Too Large", 414: "URI Too Long",
        415: "Unsupported Media Type", 416: "Range Not Satisfiable", 421: "Misdirected Request",
        422: "Unprocessable Content", 429: "Too Many Requests", 431: "Request Header Fields Too Large",
        500: "Internal Server Error", 501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout",
    ]

    /// The reason phrase of `status`, e.g. "Not Found"; "Status 599" for one without a known phrase.
    package static func reasonPhrase(_ status: Int) -> String {
        phrases[status] ?? "Status \(status)"
    }

    /// Whether a reply with `status` may carry a body (RFC 9110 §6.4.1).
    package static func allowsBody(_ status: Int) -> Bool {
        status >= 200 && status != 204 && status != 304
    }
}
