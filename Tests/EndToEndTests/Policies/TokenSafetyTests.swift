import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `BearerTokenAuthenticator` never hangs a request and never sends its token to another origin.
final class TokenSafetyTests: XCTestCase {
    /// Keeps every completion and never calls it: a refresh that is stuck.
    private final class StuckRefresh: @unchecked Sendable {
        private let lock = NSLock()
        private var completions: [@Sendable (Result<String, NetworkError>) -> Void] = []
        var calls: Int { lock.withLock { completions.count } }
        func refresh(_ completion: @escaping @Sendable (Result<String, NetworkError>) -> Void) {
            lock.withLock { completions.append(completion) }
        }
        func completeAll(with result: Result<String, NetworkError>) {
            for completion in lock.withLock({ completions }) { completion(result) }
        }
    }

    private func get(_ network: NetworkLayer, _ url: String) -> Result<Data, NetworkError>? {
        outcome(of: Data.self, timeout: 5) { recorder in
            network.send(
                NetworkRequest<Data>(urlString: url), successHandler: { recorder.success($0.value) },
                errorHandler: recorder.failure)
        }
    }

    func testARequestWaitingForAStuckRefreshEndsAtItsOwnTimeout() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 204) }
        let stuck = StuckRefresh()
        let authenticator = BearerTokenAuthenticator(accessToken: nil, refresh: stuck.refresh)
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 0.5,
            interceptors: [authenticator])
        let started = Date()
        XCTAssertEqual(get(network, "a")?.error?.message, NetworkError.timedOut.message)
        XCTAssertLessThan(Date().timeIntervalSince(started), 3)
        XCTAssertEqual(server.requestCount, 0)
    }

    func testAStuckRefreshFailsItsWaitersAtItsDeadlineAndTheNextRequestRefreshesAgain() throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 204) }
        let stuck = StuckRefresh()
        let authenticator = BearerTokenAuthenticator(
            accessToken: nil, refreshTimeout: 0.3, refresh: stuck.refresh)
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 5,
            interceptors: [authenticator])
        let started = Date()
        XCTAssertEqual(get(network, "a")?.error?.message, NetworkError.timedOut.message)
        XCTAssertLessThan(
            Date().timeIntervalSince(started), 3, "at the refresh's deadline, not the request's")
        XCTAssertEqual(stuck.calls, 1)
        // The next request starts a refresh of its own; the old one's late answer changes nothing.
        stuck.completeAll(with: .success("late"))
        XCTAssertNil(authenticator.accessToken)
        XCTAssertEqual(get(network, "b")?.error?.message, NetworkError.timedOut.message)
        XCTAssertEqual(stuck.calls, 2)
        XCTAssertEqual(server.requestCount, 0)
    }

    func testTheTokenGoesOnlyToTheLayersOrigin() throws {
        let api = try MockServer.echoing(in: self)
        let elsewhere = try MockServer.echoing(in: self)
        let authenticator = BearerTokenAuthenticator(accessToken: "s3cret") { _ in XCTFail("no refresh") }
        let network = NetworkLayer(
            baseURL: api.baseURL, sessionConfiguration: .ephemeral, timeout: 5, interceptors: [authenticator])
        _ = get(network, "mine")
        _ = get(network, try XCTUnwrap(elsewhere.url("/theirs")).absoluteString)
        XCTAssertEqual(api.takeRequest(timeout: 1)?.header("Authorization"), "Bearer s3cret")
        let other = try XCTUnwrap(elsewhere.takeRequest(timeout: 1))
        XCTAssertFalse(String(decoding: other.rawHead, as: UTF8.self).contains("s3cret"))
    }

    func testNamedOriginsAreTheOnlyOnes() throws {
        let api = try MockServer.echoing(in: self)
        let elsewhere = try MockServer.echoing(in: self)
        let authenticator = BearerTokenAuthenticator(accessToken: "s3cret", origins: [elsewhere.baseURL]) {
            _ in XCTFail("no refresh")
        }
        let network = NetworkLayer(
            baseURL: api.baseURL, sessionConfiguration: .ephemeral, timeout: 5, interceptors: [authenticator])
        _ = get(network, "mine")
        _ = get(network, try XCTUnwrap(elsewhere.url("/theirs")).absoluteString)
        XCTAssertNil(api.takeRequest(timeout: 1)?.header("Authorization"))
        XCTAssertEqual(elsewhere.takeRequest(timeout: 1)?.header("Authorization"), "Bearer s3cret")
    }

    /// On a test clock: the window is never more than half a token's lifetime, so the token must have
    /// lived most of an hour for the 60 s window to apply.
    func testATokenAboutToExpireIsRefreshedBeforeItIsSent() throws {
        let server = try MockServer.echoing(in: self)
        let clock = TestClock()
        let refreshes = Counter()
        let authenticator = BearerTokenAuthenticator(
            token: .init("old", expiresAt: clock.date.addingTimeInterval(3_600)), refreshWindow: 60
        ) { completion in
            refreshes.increment()
            completion(.success(.init("new", expiresAt: clock.date.addingTimeInterval(3_600))))
        }
        let network = NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 5,
            interceptors: [authenticator])
        clock.advance(by: 3_600 - 10)
        _ = get(network, "a")
        _ = get(network, "b")
        XCTAssertEqual(
            server.recordedRequests.map { $0.header("Authorization") }, ["Bearer new", "Bearer new"])
        XCTAssertEqual(refreshes.value, 1)
    }

    func testSignInAndSignOutFromOutside() throws {
        let server = try MockServer.echoing(in: self)
        let stuck = StuckRefresh()
        let authenticator = BearerTokenAuthenticator(accessToken: nil, refresh: stuck.refresh)
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 5,
            interceptors: [authenticator])
        authenticator.setAccessToken("signed-in")
        _ = get(network, "a")
        XCTAssertEqual(server.takeRequest(timeout: 1)?.header("Authorization"), "Bearer signed-in")
        XCTAssertEqual(stuck.calls, 0)
        // Signing in while a refresh runs hands the waiting request the new token.
        authenticator.setAccessToken(nil)
        let waiting = outcome(of: Data.self, timeout: 5) { recorder in
            network.send(
                NetworkRequest<Data>(urlString: "b"), successHandler: { recorder.success($0.value) },
                errorHandler: recorder.failure)
        } beforeWaiting: {
            waitUntil("the refresh started", timeout: 2) { stuck.calls == 1 }
            authenticator.setAccessToken("again")
        }
        XCTAssertNotNil(waiting?.value)
        XCTAssertEqual(server.takeRequest(timeout: 1)?.header("Authorization"), "Bearer again")
    }
}
