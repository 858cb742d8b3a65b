import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The account a request was started for changes while it is under way: a sign-out, or another user
/// signing in. Its reply must land in no partition but the one of the user whose token it carried, and
/// none after a sign-out.
extension CacheEndToEndTests {
    /// A server that answers each user's profile privately, naming the token it saw.
    private func serveTokenNames() {
        server.handler = { request in
            MockResponse(text: "profile for \(request.header("Authorization") ?? "nobody")")
                .cacheControl("private, max-age=600")
        }
    }

    /// A server that answers `text` privately, once `release` is signalled; `arrived` is fulfilled when the
    /// request reaches it.
    private func serveHeld(
        _ text: @escaping @Sendable (MockServerRequest) -> String
    ) -> (arrived: XCTestExpectation, release: DispatchSemaphore) {
        let arrived = expectation(description: "request at the server")
        let release = DispatchSemaphore(value: 0)
        server.handler = { request in
            arrived.fulfill()
            _ = release.wait(timeout: .now() + 10)
            return MockResponse(text: text(request)).cacheControl("private, max-age=600")
        }
        return (arrived, release)
    }

    /// Sends a GET for `path` and returns an expectation fulfilled with its outcome in `outcome`.
    private func start(
        _ path: String, into outcome: Locked<Result<NetworkResponse<Data>, NetworkError>?>
    ) -> XCTestExpectation {
        let done = expectation(description: "answered \(path)")
        network.send(
            NetworkRequest<Data>(urlString: path),
            successHandler: {
                outcome.withLock { [response = $0] in $0 = .success(response) }
                done.fulfill()
            },
            errorHandler: {
                outcome.withLock { [error = $0] in $0 = .failure(error) }
                done.fulfill()
            })
        return done
    }

    /// A request for alice waits for her token's refresh; meanwhile bob signs in, and the request goes
    /// out with bob's token. Bob's reply must not be stored as alice's.
    func testAReplyWithAnotherAccountsTokenIsNotStoredInTheFirstAccountsPartition() {
        serveTokenNames()
        let pending = Locked<(@Sendable (Result<BearerTokenAuthenticator.Token, NetworkError>) -> Void)?>(nil)
        let refreshing = expectation(description: "refresh started")
        let authenticator = BearerTokenAuthenticator(token: nil) { completion in
            pending.withLock { $0 = completion }
            refreshing.fulfill()
        }
        authenticator.account = "alice"
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            interceptors: [authenticator], cache: cache)
        let outcome = Locked<Result<NetworkResponse<Data>, NetworkError>?>(nil)
        let answered = start("me", into: outcome)
        wait(for: [refreshing], timeout: 5)
        authenticator.setAccessToken("bob-token", account: "bob")
        wait(for: [answered], timeout: 10)
        XCTAssertEqual(body(outcome.withLock { $0 } ?? .failure(.cancelled)), "profile for Bearer bob-token")
        pending.withLock { $0 }?(.failure(.cancelled))

        let alices = load("me", policy: .returnCacheDataDontLoad, account: "alice")
        XCTAssertNil(body(alices), "bob's reply was stored in alice's partition: \(alices)")
    }

    /// A request for alice is under way when she signs out; its reply arrives after the sign-out removed
    /// her partition, and must not bring it back.
    func testAReplyArrivingAfterTheSignOutIsNotStoredForTheAccount() {
        let (arrived, release) = serveHeld { "profile for \($0.header("Authorization") ?? "nobody")" }
        let authenticator = BearerTokenAuthenticator(token: nil) { completion in
            completion(.success(.init("unused")))
        }
        authenticator.setAccessToken("alice-token", account: "alice")
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            interceptors: [authenticator], cache: cache)
        let outcome = Locked<Result<NetworkResponse<Data>, NetworkError>?>(nil)
        let answered = start("me", into: outcome)
        wait(for: [arrived], timeout: 5)
        authenticator.setAccessToken(nil)
        release.signal()
        wait(for: [answered], timeout: 10)
        XCTAssertEqual(
            body(outcome.withLock { $0 } ?? .failure(.cancelled)), "profile for Bearer alice-token")

        let alices = load("me", policy: .returnCacheDataDontLoad, account: "alice")
        XCTAssertNil(body(alices), "alice's reply outlived her sign-out: \(alices)")
    }

    /// The layer's own account (no authenticator names one) changes while a request for alice is under
    /// way: the account is read again when the reply arrives, so it is not stored for alice.
    func testTheLayersAccountIsReadAgainWhenTheReplyArrives() {
        let (arrived, release) = serveHeld { _ in "alice's profile" }
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            cache: cache)
        network.account = "alice"
        let outcome = Locked<Result<NetworkResponse<Data>, NetworkError>?>(nil)
        let answered = start("me", into: outcome)
        wait(for: [arrived], timeout: 5)
        network.account = "bob"
        release.signal()
        wait(for: [answered], timeout: 10)
        XCTAssertEqual(body(outcome.withLock { $0 } ?? .failure(.cancelled)), "alice's profile")

        let alices = load("me", policy: .returnCacheDataDontLoad, account: "alice")
        XCTAssertNil(body(alices), "a reply arriving after the switch was stored for alice: \(alices)")
    }
}
