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

    /// The header fields of a reply of `contentType`; LoopbackHTTP adds the framing ones.
    static func headers(contentType: String) -> [(name: String, value: String)] {
        [
            ("Content-Type", contentType),
            ("Cache-Control", "no-store"),
            ("X-Content-Type-Options", "nosniff"),
            ("Referrer-Policy", "no-referrer"),
            ("X-Frame-Options", "DENY"),
            ("Content-Security-Policy", contentSecurityPolicy),
        ]
    }

    /// Answers through `responder`, whole.
    func send(to responder: LoopbackResponder) {
        responder.reply(status: status, headers: Self.headers(contentType: contentType), body: body)
    }
}
