import Foundation
import LoopbackHTTP

/// A reply of the inspector's server, with the headers every one carries: never cached, never sniffed,
/// never framed, no referrer (the URL holds the token), and no CORS header, so no other origin's script
/// may read it.
struct InspectorReply {
    let status: Int
    let contentType: String
    let body: Data

    static func text(_ status: Int, _ text: String) -> InspectorReply {
        InspectorReply(
            status: status, contentType: "text/plain; charset=utf-8", body: Data((text + "\n").utf8))
    }

    static func json(_ body: Data) -> InspectorReply {
        InspectorReply(status: 200, contentType: "application/json", body: body)
    }

    static func html(_ body: Data) -> InspectorReply {
        InspectorReply(status: 200, contentType: "text/html; charset=utf-8", body: body)
    }

    /// The page's script and style are inline; it talks to its own origin only and loads nothing else.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
        + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    static func headers(status: Int, contentType: String, length: Int?, closing: Bool) -> [UInt8] {
        var lines = [
            "HTTP/1.1 \(status) \(HTTPStatus.reasonPhrase(status))",
            "Content-Type: \(contentType)",
            "Cache-Control: no-store",
            "X-Content-Type-Options: nosniff",
            "Referrer-Policy: no-referrer",
            "X-Frame-Options: DENY",
            "Content-Security-Policy: \(contentSecurityPolicy)",
        ]
        if let length { lines.append("Content-Length: \(length)") }
        if closing { lines.append("Connection: close") }
        return Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// The whole reply on the wire; `closing` says the connection closes after it.
    func bytes(closing: Bool) -> [UInt8] {
        Self.headers(status: status, contentType: contentType, length: body.count, closing: closing) + body
    }
}
