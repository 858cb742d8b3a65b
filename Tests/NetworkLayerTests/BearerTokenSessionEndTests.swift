import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `sessionEndedHandler`, and the simpler initializer's `refreshWindow`.
final class BearerTokenSessionEndTests: XCTestCase {
    private typealias Helpers = BearerTokenRefreshFailureTests

    func testARejectedRefreshEndsTheSessionOnceUntilATokenArrives() {
        let refresh = Helpers.ManualRefresh()
        let authenticator = BearerTokenAuthenticator(accessToken: "old", refresh: refresh.start)
        let ended = Helpers.Box<NetworkError>()
        authenticator.sessionEndedHandler = { error in ended.add(error) }
        let waiting = Helpers.waiters(of: authenticator)

        refresh.complete(call: 0, with: .failure(Helpers.status(400)))
        XCTAssertEqual(ended.all.map(\.statusCode), [400])
        XCTAssertEqual(Helpers.errors(waiting).map { $0?.statusCode }, [400, 400])

        // Still signed out: the next request refreshes again, and its rejection is no news.
        _ = Helpers.waiters(of: authenticator)
        refresh.complete(call: 1, with: .failure(Helpers.status(401)))
        XCTAssertEqual(ended.all.count, 1, "called once per session")

        // Signed in again: the next rejection ends that session.
        // (The waiters' 401 is for "old" again, so it refreshes rather than replays.)
        authenticator.setAccessToken("old")
        _ = Helpers.waiters(of: authenticator)
        refresh.complete(call: 2, with: .failure(Helpers.status(403)))
        XCTAssertEqual(ended.all.map(\.statusCode), [400, 403])
        XCTAssertEqual(refresh.calls, 3)
    }

    func testTheSessionDoesNotEndWhenTheAuthServerIsUnreachableOrTheAppSignsOutItself() {
        let refresh = Helpers.ManualRefresh()
        let authenticator = BearerTokenAuthenticator(accessToken: "old", refresh: refresh.start)
        let ended = Helpers.Box<NetworkError>()
        authenticator.sessionEndedHandler = { error in ended.add(error) }

        _ = Helpers.waiters(of: authenticator)
        refresh.complete(call: 0, with: .failure(.transport(URLError(.notConnectedToInternet))))
        _ = Helpers.waiters(of: authenticator)
        refresh.complete(call: 1, with: .failure(Helpers.status(503)))
        XCTAssertEqual(ended.all.count, 0, "unreachable")

        // The app's own sign-out in the failure path: it knows already.
        refresh.beforeCompleting = { authenticator.setAccessToken(nil) }
        let waiting = Helpers.waiters(of: authenticator)
        refresh.complete(call: 2, with: .failure(Helpers.status(400)))
        XCTAssertEqual(ended.all.count, 0, "the app signed out itself")
        XCTAssertEqual(Helpers.errors(waiting).map { $0?.statusCode }, [400, 400])
    }

    /// On a test clock, 200 s before the expiry of a token that lives 1,000 s (the window is never more
    /// than half the lifetime).
    func testTheSimplerInitializerTakesTheRefreshWindow() {
        let refresh = Helpers.ManualRefresh()
        let clock = TestClock()
        let authenticator = BearerTokenAuthenticator(
            accessToken: nil, refreshWindow: 300, refresh: refresh.start)
        let narrow = BearerTokenAuthenticator(accessToken: nil, refreshWindow: 0, refresh: refresh.start)
        _ = DummyNetworkLayer(interceptors: [authenticator, narrow], clock: clock)
        authenticator.setAccessToken("t", expiresAt: clock.date.addingTimeInterval(1_000))
        narrow.setAccessToken("t", expiresAt: clock.date.addingTimeInterval(1_000))
        clock.advance(by: 800)
        authenticator.adapt(Helpers.request) { _ in }
        XCTAssertEqual(refresh.calls, 1, "within the 300 s window")

        let adapted = Helpers.Box<Result<URLRequest, NetworkError>>()
        narrow.adapt(Helpers.request) { adapted.add($0) }
        XCTAssertEqual(refresh.calls, 1, "not yet expired, no window")
        XCTAssertEqual(try adapted.all.first?.get().value(forHTTPHeaderField: "Authorization"), "Bearer t")
    }
}
