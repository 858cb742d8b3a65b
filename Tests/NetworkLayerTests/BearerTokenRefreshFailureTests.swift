import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a failed refresh leaves behind: the error its waiting requests get, whether the token is kept,
/// and when the session ends. The hooks are called directly, with a refresh the test completes by hand.
final class BearerTokenRefreshFailureTests: XCTestCase {
    /// A refresh whose completions the test keeps and calls when it likes.
    final class ManualRefresh: @unchecked Sendable {
        private let lock = NSLock()
        private var completions: [(Result<String, NetworkError>) -> Void] = []
        /// Runs inside the refresh's completion, before it is called: the app's failure path.
        var beforeCompleting: (@Sendable () -> Void)?

        var calls: Int { lock.withLock { completions.count } }

        func start(_ completion: @escaping (Result<String, NetworkError>) -> Void) {
            lock.withLock { completions.append(completion) }
        }

        func complete(call index: Int, with result: Result<String, NetworkError>) {
            let completion = lock.withLock { index < completions.count ? completions[index] : nil }
            guard let completion else { return XCTFail("refresh \(index + 1) was never called") }
            beforeCompleting?()
            completion(result)
        }
    }

    /// What the hooks answered, kept for the test to read.
    final class Box<Value>: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Value] = []
        var all: [Value] { lock.withLock { values } }
        func add(_ value: Value) { lock.withLock { values.append(value) } }
    }

    static let request = URLRequest(url: URL(string: "https://api.example.com/items")!)

    static func status(_ code: Int) -> NetworkError {
        .unacceptableStatusCode(code, body: Data("refused".utf8), headers: [:])
    }

    /// A request waiting for the refresh in `adapt`, and one whose 401 (sent with `old`) started it.
    static func waiters(of authenticator: BearerTokenAuthenticator)
        -> (adapting: Box<Result<URLRequest, NetworkError>>, retrying: Box<RetryDecision>)
    {
        let retrying = Box<RetryDecision>()
        var sent = request
        sent.setValue("Bearer old", forHTTPHeaderField: "Authorization")
        authenticator.retry(FailedAttempt(request: sent, error: status(401), number: 1)) { retrying.add($0) }
        let adapting = Box<Result<URLRequest, NetworkError>>()
        authenticator.adapt(request) { adapting.add($0) }
        return (adapting, retrying)
    }

    static func errors(
        _ waiters: (adapting: Box<Result<URLRequest, NetworkError>>, retrying: Box<RetryDecision>)
    ) -> [NetworkError?] {
        let adapted = waiters.adapting.all.map(\.error)
        let decided: [NetworkError?] = waiters.retrying.all.map {
            if case .fail(let error) = $0 { return error }
            return nil
        }
        return adapted + decided
    }

    /// The case: the app signs out in the refresh's failure path, then reports the failure. The
    /// waiting requests got `.cancelled` ("show nothing"), so the user saw no error at all.
    func testWaitingRequestsGetTheRefreshsErrorWhenTheAppSignsOutInItsFailurePath() {
        let refresh = ManualRefresh()
        let authenticator = BearerTokenAuthenticator(accessToken: "old", refresh: refresh.start)
        refresh.beforeCompleting = { authenticator.setAccessToken(nil) }
        let waiting = Self.waiters(of: authenticator)
        XCTAssertEqual(refresh.calls, 1)

        refresh.complete(call: 0, with: .failure(Self.status(400)))

        let errors = Self.errors(waiting)
        XCTAssertEqual(errors.count, 2, "each waiter answered once: \(errors)")
        for error in errors {
            XCTAssertEqual(error?.statusCode, 400, "\(String(describing: error))")
        }
        XCTAssertNil(authenticator.accessToken, "signed out")
    }

    /// A sign-out while a refresh runs stands even when the refresh then brings a token.
    func testASignOutDuringARefreshThatSucceedsStands() {
        let refresh = ManualRefresh()
        let authenticator = BearerTokenAuthenticator(accessToken: "old", refresh: refresh.start)
        let waiting = Self.waiters(of: authenticator)
        authenticator.setAccessToken(nil)
        XCTAssertTrue(waiting.adapting.all.isEmpty, "waits for the refresh's outcome")

        refresh.complete(call: 0, with: .success("new"))

        XCTAssertEqual(Self.errors(waiting).map { $0?.isCancelled }, [true, true])
        XCTAssertNil(authenticator.accessToken, "the refreshed token is not kept after a sign-out")
    }

    /// Offline, a timeout or a 5xx from the auth server says nothing about the session: the token stays
    /// (cached replies stored for it still match), while the waiting requests get the refresh's error.
    func testAnUnreachableAuthServerKeepsTheToken() {
        let unreachable: [NetworkError] = [
            .transport(URLError(.notConnectedToInternet)), .transport(URLError(.networkConnectionLost)),
            .timedOut, Self.status(500), Self.status(503), Self.status(408), Self.status(429),
        ]
        for failure in unreachable {
            let refresh = ManualRefresh()
            let authenticator = BearerTokenAuthenticator(accessToken: "old", refresh: refresh.start)
            let waiting = Self.waiters(of: authenticator)

            refresh.complete(call: 0, with: .failure(failure))

            XCTAssertEqual(Self.errors(waiting).map { $0?.message }, [failure.message, failure.message])
            XCTAssertEqual(authenticator.accessToken, "old", "\(failure): still signed in")
        }
    }

    /// A 4xx from the auth server (or the app's own refusal) ends the session: the token is forgotten.
    func testARejectedRefreshForgetsTheToken() {
        for failure in [Self.status(400), Self.status(401), Self.status(403), "No refresh token"] {
            let refresh = ManualRefresh()
            let authenticator = BearerTokenAuthenticator(accessToken: "old", refresh: refresh.start)
            let waiting = Self.waiters(of: authenticator)

            refresh.complete(call: 0, with: .failure(failure))

            XCTAssertEqual(Self.errors(waiting).map { $0?.message }, [failure.message, failure.message])
            XCTAssertNil(authenticator.accessToken, "\(failure)")
        }
    }

    /// The simpler initializer refreshes a token set with an expiry a minute ahead of it, as the other
    /// one does, instead of sending it until the very moment it expires. On a test clock: an hour's token,
    /// 30 s before its expiry (the window is never more than half the lifetime).
    func testATokenSetWithAnExpiryIsRefreshedWithinTheDefaultWindow() throws {
        let refresh = ManualRefresh()
        let clock = TestClock()
        let authenticator = BearerTokenAuthenticator(accessToken: nil, refresh: refresh.start)
        _ = DummyNetworkLayer(interceptors: [authenticator], clock: clock)
        authenticator.setAccessToken("soon", expiresAt: clock.date.addingTimeInterval(3_600))
        clock.advance(by: 3_600 - 30)
        let adapting = Box<Result<URLRequest, NetworkError>>()
        authenticator.adapt(Self.request) { adapting.add($0) }

        XCTAssertEqual(refresh.calls, 1, "refreshed 30 s before the expiry, within the 60 s window")
        refresh.complete(call: 0, with: .success("fresh"))
        let sent = try XCTUnwrap(adapting.all.first).get()
        XCTAssertEqual(sent.value(forHTTPHeaderField: "Authorization"), "Bearer fresh")
    }
}
