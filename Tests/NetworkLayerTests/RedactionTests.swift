import Foundation
import XCTest

@testable import NetworkLayer

/// The text rules behind every error's `message` and `description`, kept apart for the logging that
/// will reuse them.
final class RedactionTests: XCTestCase {
    func testURLKeepsEverythingButUserInfoAndParameterValues() {
        let cases = [
            "https://api.example.com/v1/users": "https://api.example.com/v1/users",
            "https://user:secret@host/?token=abc": "https://<redacted>@host/?token=<redacted>",
            "https://ghp_token@github.com/x": "https://<redacted>@github.com/x",
            "https://host/p?a=1&b&c=&d=x=y": "https://host/p?a=<redacted>&b&c=&d=<redacted>",
            "https://host/#section-2": "https://host/#section-2",
            "https://host/cb#access_token=abc&token_type=bearer":
                "https://host/cb#access_token=<redacted>&token_type=<redacted>",
            "https://host/users/@me?x=1": "https://host/users/@me?x=<redacted>",
            "https://host@evil/": "https://<redacted>@evil/",
            "https://a:b@c@host/": "https://<redacted>@host/",
            "ann@example.com": "ann@example.com",
            "": "",
        ]
        for (raw, redacted) in cases {
            XCTAssertEqual(Redaction.url(raw), redacted, raw)
        }
    }

    /// A password with `#`, `/` or `?` in it ends the authority early for a URL parser; a port followed
    /// by an `@` later in the URL is not such a password.
    func testUserInfoRunningPastTheAuthorityIsRedactedButAPortIsNot() {
        let cases = [
            "https://alice:Hunter#2secret@files.example.com/r": "https://<redacted>@files.example.com/r",
            "https://alice:Hunter/2secret@files.example.com/r": "https://<redacted>@files.example.com/r",
            "https://api.example.com:8443/x?email=a@b.com&token=SECRET":
                "https://api.example.com:8443/x?email=<redacted>&token=<redacted>",
            "https://api.example.com:8443/cb#state=a@b&access_token=SECRET":
                "https://api.example.com:8443/cb#state=<redacted>&access_token=<redacted>",
            "https://registry.example.com:8443/@scope/pkg": "https://registry.example.com:8443/@scope/pkg",
        ]
        for (url, expected) in cases {
            XCTAssertEqual(Redaction.url(url), expected, url)
        }
        XCTAssertEqual(
            Redaction.text("GET https://api.example.com:8443/users/@bob timed out."),
            "GET https://api.example.com:8443/users/@bob timed out.")
    }

    func testTextRedactsEachURLInIt() {
        let text = """
            no stub matches GET https://user:pw@api.example.com/me?token=abc. Stubs:
              GET "https://api.example.com/other?key=xyz" and <https://h/#id_token=t>
            """
        let expected = """
            no stub matches GET https://<redacted>@api.example.com/me?token=<redacted> Stubs:
              GET "https://api.example.com/other?key=<redacted>" and <https://h/#id_token=<redacted>>
            """
        XCTAssertEqual(Redaction.text(text), expected)
        XCTAssertEqual(Redaction.text(expected), expected, "redacting twice changes nothing")
        for plain in ["Something went wrong.", "Why? Mail ann@example.com about C# (#12).", "a=b"] {
            XCTAssertEqual(Redaction.text(plain), plain)
        }
    }

    func testQuotedEscapesEveryControlCharacter() {
        XCTAssertEqual(Redaction.quoted("X-A_b"), #""X-A_b""#)
        XCTAssertEqual(Redaction.quoted("a\r\nb\t\0\"\\"), #""a\r\nb\t\0\"\\""#)
        XCTAssertEqual(
            Redaction.quoted("\u{1B}[2J\u{7F}\u{85}\u{2028}\u{2029}"),
            #""\u{1B}[2J\u{7F}\u{85}\u{2028}\u{2029}""#)
        XCTAssertEqual(Redaction.quoted("ünïcödé ✓"), #""ünïcödé ✓""#)
    }
}
