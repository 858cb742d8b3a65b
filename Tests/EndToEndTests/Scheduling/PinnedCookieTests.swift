import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cookie a request was keyed by is the cookie it carries (issue 44): sharing and the cache read the
/// session's cookie before the origin's gate, where a request may wait across a sign-out and sign-in, so
/// that cookie is written into the request then, and the session adds none of its own later.
final class PinnedCookieTests: XCTestCase {
    private let queue = DispatchQueue(label: "pinned-cookie.callbacks")

    /// A server that holds every reply until the test opens it, answering with the `Cookie` it received,
    /// `private` (so the cache keys it by the cookie too).
    private func echoingCookies() throws -> GatedServer {
        try GatedServer(in: self) { request in
            MockResponse(text: request.header("Cookie") ?? "none").cacheControl("private, max-age=600")
        }
    }

    /// A layer with a budget of one request per origin and a cookie storage of its own holding `session`.
    private func layer(
        _ server: MockServer, cache: ResponseCache?, sharing: Bool, session: String
    ) throws -> (NetworkLayer, HTTPCookieStorage) {
        let configuration = URLSessionConfiguration.ephemeral
        let storage = try XCTUnwrap(configuration.httpCookieStorage)
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: configuration, callbackQueue: queue, timeout: 10,
            cache: cache,
            scheduling: RequestScheduling(sharesIdenticalRequests: sharing, maximumRequestsPerOrigin: 1))
        try setCookie(session, in: storage, for: server)
        return (network, storage)
    }

    private func setCookie(_ session: String, in storage: HTTPCookieStorage, for server: MockServer) throws {
        let url = try XCTUnwrap(server.baseURL)
        storage.setCookies(
            HTTPCookie.cookies(
                withResponseHeaderFields: ["Set-Cookie": "session=\(session); Path=/"], for: url),
            for: url, mainDocumentURL: nil)
    }

    private func send(
        _ path: String, on network: NetworkLayer, as index: Int, to outcomes: CallerOutcomes<Data>
    ) {
        let (success, failure) = outcomes.handlers(index)
        network.send(NetworkRequest<Data>(urlString: path), successHandler: success, errorHandler: failure)
    }

    private func text(_ outcomes: CallerOutcomes<Data>, _ index: Int) -> String? {
        outcomes.all[index]?.first.flatMap { try? $0.get() }.map { String(decoding: $0, as: UTF8.self) }
    }

    /// The cookies `path` reached the server with, in order.
    private func cookies(_ server: MockServer, at path: String) -> [String] {
        server.recordedRequests.filter { $0.path == path }.map { $0.header("Cookie") ?? "none" }
    }

    /// Sends `GET /slow` (held by the server, so it takes the budget of one), then user A's `GET /me` as
    /// caller 1, and returns once that one waits at the origin's gate (`scheduled` requests and flights).
    private func holdAsGETBehindTheBudget(
        _ gated: GatedServer, _ network: NetworkLayer, _ outcomes: CallerOutcomes<Data>, scheduled: Int
    ) {
        send("slow", on: network, as: 0, to: outcomes)
        XCTAssertEqual(gated.server.takeRequest(timeout: 5)?.path, "/slow")
        send("me", on: network, as: 1, to: outcomes)
        waitUntil("A's GET waits at the gate", timeout: 5) { network.scheduledCount == scheduled }
    }

    /// The body of a `GET` of `path` sent alone.
    private func load(_ path: String, on network: NetworkLayer) -> String? {
        let outcomes = CallerOutcomes<Data>(expectation(description: "one outcome"), count: 1)
        send(path, on: network, as: 0, to: outcomes)
        wait(for: [outcomes.expectation], timeout: 10)
        return text(outcomes, 0)
    }

    func testASharedGETHeldAtTheOriginGateCarriesTheCookieItsKeyRecorded() throws {
        let gated = try echoingCookies()
        let (network, storage) = try layer(gated.server, cache: nil, sharing: true, session: "a")
        let outcomes = CallerOutcomes<Data>(expectation(description: "3 outcomes"), count: 3)
        // Flights and origin entries: /slow's and A's /me's.
        holdAsGETBehindTheBudget(gated, network, outcomes, scheduled: 4)

        try setCookie("b", in: storage, for: gated.server)  // A signs out, B signs in
        send("me", on: network, as: 2, to: outcomes)
        waitUntil("B's GET waits on its own", timeout: 5) { network.scheduledCount == 6 }
        gated.open()
        wait(for: [outcomes.expectation], timeout: 10)

        XCTAssertEqual(text(outcomes, 1), "session=a", "A's caller got a reply fetched with B's cookie")
        XCTAssertEqual(text(outcomes, 2), "session=b")
        XCTAssertEqual(cookies(gated.server, at: "/me"), ["session=a", "session=b"])
    }

    func testACachedGETHeldAtTheOriginGateIsStoredForTheCookieItCarried() throws {
        let gated = try echoingCookies()
        let cache = ResponseCache(memoryCapacity: 1_000_000)
        let (network, storage) = try layer(gated.server, cache: cache, sharing: false, session: "a")
        let outcomes = CallerOutcomes<Data>(expectation(description: "2 outcomes"), count: 2)
        // The cache looks /me up for A's cookie, then the GET waits behind /slow for the budget.
        holdAsGETBehindTheBudget(gated, network, outcomes, scheduled: 2)

        try setCookie("b", in: storage, for: gated.server)
        gated.open()
        wait(for: [outcomes.expectation], timeout: 10)
        XCTAssertEqual(text(outcomes, 1), "session=a")
        XCTAssertEqual(cookies(gated.server, at: "/me"), ["session=a"])

        // B's lookup must not find a reply stored for A's cookie with B's data, nor A's for B.
        XCTAssertEqual(load("me", on: network), "session=b")
        try setCookie("a", in: storage, for: gated.server)
        XCTAssertEqual(load("me", on: network), "session=a", "A was served a reply fetched with B's cookie")
    }
}
