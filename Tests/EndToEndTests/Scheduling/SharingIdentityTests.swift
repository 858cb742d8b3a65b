import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sharing keys a request as it goes on the wire (issue 44): after every interceptor adapted it, with the
/// cookie the session adds. A caller never receives a reply fetched with credentials its own request would
/// not have carried, whoever added them; identical requests of one user still share.
final class SharingIdentityTests: XCTestCase {
    private let queue = DispatchQueue(label: "sharing-identity.callbacks")

    private func layer(
        _ server: MockServer, interceptors: [any RequestInterceptor] = [],
        configuration: URLSessionConfiguration = .ephemeral
    ) -> NetworkLayer {
        NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: configuration, callbackQueue: queue,
            interceptors: interceptors, cache: nil)
    }

    /// A server that answers each request, once the test lets it, with the value of `field` it carried.
    private func echoing(_ field: String) throws -> GatedServer {
        try GatedServer(in: self) { request in try .json([request.header(field) ?? "none"]) }
    }

    private func send(
        _ request: NetworkRequest<[String]> = NetworkRequest(urlString: "me"), on network: NetworkLayer,
        as index: Int, to outcomes: CallerOutcomes<[String]>
    ) {
        let (success, failure) = outcomes.handlers(index)
        network.send(request, successHandler: success, errorHandler: failure)
    }

    /// Sends a `GET /me` on `network`, held by the server; runs `switchUser`; sends the identical `GET`.
    /// The second must reach the server on its own, carrying `field` as `values.after`, and each caller get
    /// the reply to its own request.
    private func assertASwitchMidFlightKeepsCallersApart(
        _ gated: GatedServer, _ network: NetworkLayer, field: String, values: (before: String, after: String),
        switchUser: () throws -> Void, file: StaticString = #filePath, line: UInt = #line
    ) rethrows {
        let outcomes = CallerOutcomes<[String]>(expectation(description: "2 outcomes"), count: 2)
        send(on: network, as: 0, to: outcomes)
        let first = gated.server.takeRequest(timeout: 5)
        XCTAssertEqual(first?.header(field) ?? "none", values.before, file: file, line: line)

        try switchUser()
        send(on: network, as: 1, to: outcomes)
        XCTAssertEqual(
            gated.server.takeRequest(timeout: 5)?.header(field), values.after,
            "the second caller's GET reaches the server with its own \(field)", file: file, line: line)
        gated.open()
        wait(for: [outcomes.expectation], timeout: 10)
        XCTAssertEqual(
            outcomes.all[0]?.first.flatMap { try? $0.get() }, [values.before], file: file, line: line)
        XCTAssertEqual(
            outcomes.all[1]?.first.flatMap { try? $0.get() }, [values.after], file: file, line: line)
        XCTAssertEqual(gated.server.requestCount, 2, file: file, line: line)
    }

    func testAfterASwitchOfTokensMidFlightTheNewUsersGETGoesOnItsOwnAndGetsItsOwnReply() throws {
        let gated = try echoing("Authorization")
        let authenticator = BearerTokenAuthenticator(accessToken: "token-a") { completion in
            completion(.failure(.invalidRequest("no refresh in this test")))
        }
        let network = layer(gated.server, interceptors: [authenticator])
        assertASwitchMidFlightKeepsCallersApart(
            gated, network, field: "Authorization", values: ("Bearer token-a", "Bearer token-b")
        ) {
            authenticator.setAccessToken(nil)  // sign-out
            authenticator.setAccessToken("token-b")  // sign-in as another user, no account named
        }
    }

    func testAnAPIKeyALayerInterceptorAddsForTheSignedInUserSplitsRequestsAcrossASwitch() throws {
        let gated = try echoing("X-Api-Key")
        let key = SignedInKey("key-a")
        let network = layer(gated.server, interceptors: [key])
        assertASwitchMidFlightKeepsCallersApart(
            gated, network, field: "X-Api-Key", values: ("key-a", "key-b")
        ) {
            key.current.withLock { $0 = "key-b" }
        }
    }

    func testACookieStoredBetweenTwoIdenticalGETsKeepsThemApart() throws {
        let gated = try echoing("Cookie")
        // An ephemeral configuration has a cookie storage of its own: nothing leaks into the shared one.
        let configuration = URLSessionConfiguration.ephemeral
        let storage = try XCTUnwrap(configuration.httpCookieStorage)
        let network = layer(gated.server, configuration: configuration)
        try assertASwitchMidFlightKeepsCallersApart(
            gated, network, field: "Cookie", values: ("none", "session=b")
        ) {
            let url = try XCTUnwrap(gated.server.baseURL)
            let cookies = HTTPCookie.cookies(
                withResponseHeaderFields: ["Set-Cookie": "session=b; Path=/"], for: url)
            storage.setCookies(cookies, for: url, mainDocumentURL: nil)
        }
    }

    func testIdenticalGETsOfOneUserStillShareOneRequest() throws {
        let gated = try echoing("Authorization")
        let authenticator = BearerTokenAuthenticator(accessToken: "token-a") { completion in
            completion(.failure(.invalidRequest("no refresh in this test")))
        }
        let network = layer(gated.server, interceptors: [authenticator, SignedInKey("key-a")])
        let outcomes = CallerOutcomes<[String]>(expectation(description: "5 outcomes"), count: 5)
        for index in 0..<5 { send(on: network, as: index, to: outcomes) }
        waitUntil("every caller joined", timeout: 5) { network.sharingCallerCount == 5 }
        gated.open()
        wait(for: [outcomes.expectation], timeout: 10)
        XCTAssertEqual(
            outcomes.all.values.compactMap { try? $0[0].get() },
            Array(repeating: ["Bearer token-a"], count: 5))
        XCTAssertEqual(gated.server.requestCount, 1)
    }

    func testRequestsWithTheirOwnInterceptorsShareWhenTheyAddTheSame() throws {
        let gated = try echoing("X-Client")
        let network = layer(gated.server)
        let outcomes = CallerOutcomes<[String]>(expectation(description: "3 outcomes"), count: 3)
        for index in 0..<3 {
            var request = NetworkRequest<[String]>(urlString: "me")
            request.interceptors = [SettingHeader(name: "X-Client", value: "ios")]
            send(request, on: network, as: index, to: outcomes)
        }
        waitUntil("every caller joined", timeout: 5) { network.sharingCallerCount == 3 }
        gated.open()
        wait(for: [outcomes.expectation], timeout: 10)
        XCTAssertEqual(
            outcomes.all.values.compactMap { try? $0[0].get() }, Array(repeating: ["ios"], count: 3))
        XCTAssertEqual(gated.server.requestCount, 1)
    }

    /// Each sharer runs its own policies: a 401 all of them see makes one refresh (the authenticator
    /// coalesces them), and their retries, identical and in flight at once, share again.
    func testFiveSharersGettingA401RefreshOnceAndTheirRetriesShareAgain() throws {
        let gated = try GatedServer(in: self, reply: TokenServer.handler())
        // The spy sits before the authenticator: once it has seen five failed attempts, all five have
        // joined the refresh, which is held open until then.
        let spy = SpyInterceptor()
        let refresh = CountingRefresh(before: { _ in spy.retries.wait(for: 5, timeout: 5) })
        let authenticator = BearerTokenAuthenticator(accessToken: "old", refresh: refresh.refresh)
        let network = layer(gated.server, interceptors: [spy, authenticator])
        let outcomes = CallerOutcomes<[String]>(expectation(description: "5 outcomes"), count: 5)
        for index in 0..<5 { send(on: network, as: index, to: outcomes) }
        waitUntil("every caller joined the first request", timeout: 5) { network.sharingCallerCount == 5 }
        gated.releaseOne()  // the 401
        waitUntil("every caller joined the retry", timeout: 5) {
            gated.server.requestCount == 2 && network.sharingCallerCount == 5
        }
        gated.open()
        wait(for: [outcomes.expectation], timeout: 10)
        XCTAssertEqual(refresh.calls.value, 1, "one refresh for five 401s")
        XCTAssertEqual(
            outcomes.all.values.compactMap { try? $0[0].get() }, Array(repeating: ["/me"], count: 5))
        XCTAssertEqual(gated.server.authorizations, ["Bearer old", "Bearer new"])
    }
}

/// A layer interceptor adding the signed-in user's API key, which a sign-in replaces.
private struct SignedInKey: RequestInterceptor {
    let current: Locked<String>

    init(_ key: String) {
        current = Locked(key)
    }

    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        var request = request
        request.setValue(current.withLock { $0 }, forHTTPHeaderField: "X-Api-Key")
        completion(.success(request))
    }
}
