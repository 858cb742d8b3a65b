import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Secrets never reach a log line or a curl command; names do.
final class LoggerRedactionTests: XCTestCase {
    private let secrets = [
        "SECRET-AUTHORIZATION", "SECRET-PROXY", "SECRET-COOKIE", "SECRET-APIKEY", "SECRET-TENANT",
        "SECRET-QUERY", "SECRET-USERINFO", "SECRET-SETCOOKIE",
    ]

    private func logger(level: NetworkLogger.Level = .full, into lines: LineCollector) -> NetworkLogger {
        NetworkLogger(
            level: level, redactedHeaders: ["x-tenant-token"], redactedQueryItems: ["Session"],
            sink: lines.sink)
    }

    /// Sends every kind of secret the logger must hide, for a success and for a failure (which also
    /// writes a curl command), and searches every line for them.
    func testNoSecretReachesAnyLineAndEveryNameStays() throws {
        let server = try MockServer.started(in: self) { request in
            let status = request.path.hasSuffix("/fail") ? 500 : 200
            return try .json(
                ["ok": status == 200], status: status,
                headers: ["Set-Cookie": "sid=SECRET-SETCOOKIE; HttpOnly"])
        }
        let lines = LineCollector()
        let logger = logger(into: lines)
        let base = try XCTUnwrap(URL(string: "http://user:SECRET-USERINFO@127.0.0.1:\(server.port)/api"))
        let headers = [
            "Authorization": "Bearer SECRET-AUTHORIZATION", "Proxy-Authorization": "Basic SECRET-PROXY",
            "Cookie": "sid=SECRET-COOKIE", "X-Tenant-Token": "SECRET-TENANT", "X-Visible": "shown",
        ]
        let watcher = EventRecorder()
        let finished = watcher.expectFinishes(2, self)
        let network = NetworkLayer(
            baseURL: base, defaultHeaders: ["X-Api-Key": "SECRET-APIKEY"], sessionConfiguration: .ephemeral,
            monitors: [logger, watcher])

        let success = outcome(of: [String: Bool].self) { recorder in
            network.send(
                NetworkRequest(
                    urlString: "ok", query: ["session": "SECRET-QUERY", "page": "2"], headers: headers),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
        let failure = outcome(of: [String: Bool].self) { recorder in
            network.send(
                NetworkRequest(
                    urlString: "fail", query: ["session": "SECRET-QUERY", "page": "2"], headers: headers),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
        wait(for: [finished], timeout: 10)

        XCTAssertEqual(success?.value, ["ok": true], "\(String(describing: success))")
        XCTAssertEqual(failure?.error?.statusCode, 500, "\(String(describing: failure))")
        // The secrets did go out: the redaction is the logger's, not a request without them.
        let sent = try XCTUnwrap(watcher.events.compactMap(\.built).first)
        XCTAssertEqual(sent.value(forHTTPHeaderField: "Authorization"), "Bearer SECRET-AUTHORIZATION")
        XCTAssertEqual(sent.url?.user, "user")
        XCTAssertTrue(sent.url?.query?.contains("SECRET-QUERY") == true)
        let setCookie = try XCTUnwrap(watcher.events.compactMap(\.received).first?.response)
        XCTAssertEqual(setCookie.value(forHTTPHeaderField: "Set-Cookie"), "sid=SECRET-SETCOOKIE; HttpOnly")

        let text = lines.text
        for secret in secrets {
            XCTAssertFalse(text.contains(secret), "\(secret) was logged:\n\(text)")
        }
        XCTAssertFalse(text.contains("user:"), "the URL's user-info was logged:\n\(text)")
        let curl = try XCTUnwrap(lines.lines.first { $0.contains("curl ") }, "a failure writes a curl line")
        for name in ["Authorization", "Proxy-Authorization", "Cookie", "X-Api-Key", "X-Tenant-Token"] {
            XCTAssertTrue(text.contains("\(name): <redacted>"), "\(name) is named:\n\(text)")
            XCTAssertTrue(curl.contains("\(name): <redacted>"), "\(name) in the curl command:\n\(curl)")
        }
        XCTAssertTrue(text.contains("Set-Cookie: <redacted>"), text)
        XCTAssertTrue(text.contains("X-Visible: shown"), text)
        XCTAssertTrue(text.contains("session=<redacted>"), text)
        XCTAssertTrue(text.contains("page=2"), "other query items stay readable:\n\(text)")
        XCTAssertTrue(curl.contains("session=<redacted>"), curl)
        XCTAssertTrue(text.contains("<redacted>@127.0.0.1"), text)
        XCTAssertTrue(lines.lines.contains { $0.hasPrefix("✓") }, text)
        XCTAssertTrue(lines.lines.contains { $0.hasPrefix("✗") }, text)
    }

    /// Regression: redacting a URL with user-info, or a named query item, stopped the process
    /// (URLComponents refuses `<` and `>` in its percent-encoded setters).
    func testURLsWithUserInfoAndNamedQueryItemsAreRedactedWithoutCrashing() throws {
        let logger = NetworkLogger(redactedQueryItems: ["token", "Key"], sink: { _ in })
        let url = try XCTUnwrap(
            URL(string: "https://ann:hunter2@api.example.com:8443/v1/items?token=abc&page=2&KEY=k1&flag#top"))

        XCTAssertEqual(
            logger.redacted(url),
            "https://<redacted>@api.example.com:8443/v1/items?token=<redacted>&page=2&KEY=<redacted>&flag#<redacted>"
        )
        XCTAssertEqual(
            logger.redacted(URL(string: "http://only-user@h/p")), "http://<redacted>@h/p")
        XCTAssertEqual(logger.redacted(URL(string: "http://h/p?a=1")), "http://h/p?a=1")
        XCTAssertEqual(logger.redacted(nil), "(no URL)")

        var request = URLRequest(url: url)
        request.setValue("Bearer t0k3n", forHTTPHeaderField: "Authorization")
        let curl = logger.curlCommand(for: request)
        XCTAssertFalse(curl.contains("hunter2"), curl)
        XCTAssertFalse(curl.contains("abc"), curl)
        XCTAssertFalse(curl.contains("t0k3n"), curl)
        XCTAssertFalse(curl.contains("k1"), curl)
    }

    /// A header named only in the layer's `RedirectPolicy(credentialHeaders:)` is a credential for the
    /// logger too: its value reaches no line and no curl command, though the logger was told nothing.
    func testALayersOwnCredentialHeaderIsRedactedInLinesAndTheCurlCommand() throws {
        let server = try MockServer.started(in: self) { _ in
            MockResponse(status: 500, headers: ["X-Session-Token": "SECRET-ECHOED"], text: "down")
        }
        let lines = LineCollector()
        let watcher = EventRecorder()
        let finished = watcher.expectFinishes(1, self)
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral,
            redirectPolicy: RedirectPolicy(credentialHeaders: ["x-session-token"]),
            monitors: [NetworkLogger(level: .full, sink: lines.sink), watcher])
        var request = NetworkRequest<Data>(
            method: .post, urlString: "fail",
            headers: ["X-Session-Token": "SECRET-SESSION", "X-Visible": "shown"],
            body: .data(
                Data(#"{"x_session_token":"SECRET-MEMBER","n":1}"#.utf8), contentType: "application/json"))
        request.retryPolicy = RetryPolicy.none
        let failure = outcome(of: Data.self) { recorder in
            network.send(
                request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }
        wait(for: [finished], timeout: 10)

        XCTAssertEqual(failure?.error?.statusCode, 500, "\(String(describing: failure))")
        let sent = try XCTUnwrap(watcher.events.compactMap(\.built).first)
        XCTAssertEqual(sent.value(forHTTPHeaderField: "X-Session-Token"), "SECRET-SESSION", "it did go out")
        let text = lines.text
        for secret in ["SECRET-SESSION", "SECRET-ECHOED", "SECRET-MEMBER"] {
            XCTAssertFalse(text.contains(secret), "\(secret) was logged:\n\(text)")
        }
        XCTAssertTrue(text.contains("X-Session-Token: <redacted>"), text)
        XCTAssertTrue(text.contains("X-Visible: shown"), text)
        let curl = try XCTUnwrap(lines.lines.first { $0.contains("curl ") }, "a failure writes a curl line")
        XCTAssertTrue(curl.contains("X-Session-Token: <redacted>"), curl)
        XCTAssertTrue(curl.contains("X-Visible: shown"), curl)
    }

    func testHeaderRedactionIgnoresCase() {
        let logger = NetworkLogger(redactedHeaders: ["X-Secret"], sink: { _ in })
        XCTAssertEqual(logger.redacted(header: "x-secret", value: "v"), "<redacted>")
        XCTAssertEqual(logger.redacted(header: "AUTHORIZATION", value: "v"), "<redacted>")
        XCTAssertEqual(logger.redacted(header: "set-cookie", value: "v"), "<redacted>")
        XCTAssertEqual(logger.redacted(header: "X-Other", value: "v"), "v")
    }
}
