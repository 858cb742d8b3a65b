import Foundation
import NetworkLayer
import NetworkTestSupport
import Testing

/// Every spelling of a redirect target, run against two servers on different ports of 127.0.0.1: the
/// origin `A` and the other `B`. Credentials reach a follow-up request only when the `Location` names
/// `A`'s own origin; with or without `forwardsHeadersAcrossOrigins`.
@Suite("Redirect targets: one origin rule for every spelling")
struct OriginSpellingTests {
    struct Spelling: Sendable, CustomTestStringConvertible {
        /// `{a}` and `{b}` stand for the two servers' ports.
        let location: String
        let sameOrigin: Bool
        var testDescription: String { "\(location) (\(sameOrigin ? "same origin" : "another origin"))" }
    }

    static let spellings: [Spelling] = [
        Spelling(location: "http://127.0.0.1:{b}/next", sameOrigin: false),
        Spelling(location: "HTTP://127.0.0.1:{b}/next", sameOrigin: false),
        Spelling(location: "http://LOCALHOST:{b}/next", sameOrigin: false),
        Spelling(location: "//127.0.0.1:{b}/next", sameOrigin: false),
        Spelling(location: "http://user:pass@127.0.0.1:{b}/next", sameOrigin: false),
        Spelling(location: "http://127.0.0.1.:{b}/next", sameOrigin: false),
        Spelling(location: "http://127.0.0.1.:{a}/next", sameOrigin: false),
        Spelling(location: "http://localhost:{a}/next", sameOrigin: false),
        Spelling(location: "http://127.0.0.1/next", sameOrigin: false),
        Spelling(location: "http://127.0.0.1:80/next", sameOrigin: false),
        Spelling(location: "https://127.0.0.1:{a}/next", sameOrigin: false),
        Spelling(location: "http://[::1]:{b}/next", sameOrigin: false),
        Spelling(location: "/next", sameOrigin: true),
        Spelling(location: "next", sameOrigin: true),
        Spelling(location: "http://127.0.0.1:{a}/next", sameOrigin: true),
        Spelling(location: "HTTP://127.0.0.1:{a}/next", sameOrigin: true),
        Spelling(location: "//127.0.0.1:{a}/next", sameOrigin: true),
    ]

    static let credentials = [
        "Authorization": "Bearer s3cret-bearer", "Proxy-Authorization": "Basic s3cret-proxy",
        "Cookie": "session=s3cret-cookie", "X-Api-Key": "s3cret-key", "X-Auth-Token": "s3cret-token",
        "X-Session": "s3cret-session",
    ]

    @Test("each 3xx to each spelling", arguments: spellings, [false, true])
    func redirect(to spelling: Spelling, forwards: Bool) async throws {
        for status in [301, 302, 303, 307, 308] {
            try await redirect(to: spelling, status: status, forwards: forwards)
        }
    }

    private func redirect(to spelling: Spelling, status: Int, forwards: Bool) async throws {
        let echo: MockServer.Handler = { _ in MockResponse(status: 200, body: Data("{}".utf8)) }
        let origin = MockServer(handler: echo)
        let other = MockServer(handler: echo)
        try origin.start()
        defer { origin.stop() }
        try other.start()
        defer { other.stop() }
        let location = spelling.location.replacingOccurrences(of: "{a}", with: "\(origin.port)")
            .replacingOccurrences(of: "{b}", with: "\(other.port)")
        origin.enqueue(MockResponse(status: status, headers: ["Location": location]))
        let network = NetworkLayer(
            baseURL: origin.baseURL, defaultHeaders: Self.credentials, sessionConfiguration: .ephemeral,
            callbackQueue: DispatchQueue(label: "OriginSpellingTests"), timeout: 5,
            redirectPolicy: RedirectPolicy(
                forwardsHeadersAcrossOrigins: forwards, credentialHeaders: ["x-session"]))
        _ = try? await network.send(NetworkRequest<Data>(urlString: "start"))

        let followUps = Array(origin.recordedRequests.dropFirst()) + other.recordedRequests
        if spelling.sameOrigin {
            let followUp = try #require(followUps.first, "the redirect was not followed")
            for (name, value) in Self.credentials {
                #expect(followUp.header(name) == value, "\(name) was not kept within the origin (\(status))")
            }
        } else {
            for request in followUps {
                // Searched in the bytes as received: a `Location` with user-info makes libcurl send its own
                // `Authorization`, the server's choice, which is no secret of the caller's.
                let wire = String(decoding: request.rawHead, as: UTF8.self)
                for (name, value) in Self.credentials {
                    #expect(!wire.contains(value), "\(name) went to another origin (\(status))")
                }
            }
        }
    }
}
