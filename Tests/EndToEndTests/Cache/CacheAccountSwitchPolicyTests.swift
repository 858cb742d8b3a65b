import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request whose account changed while it was under way keeps its cache policy's promises: one that
/// may only be answered by the cache is never sent, and a failure after the account's sign-out gets
/// no stored reply of the account's to stand in for it.
extension CacheEndToEndTests {
    /// A `returnCacheDataDontLoad` request for alice is answered before her token's refresh (the
    /// account's partition needs no token), so no sign-in meanwhile can make it another user's: with
    /// nothing stored it fails without a refresh and without reaching the server, as the policy promises.
    func testADontLoadRequestForAnAccountIsAnsweredBeforeItsRefresh() {
        server.handler = { _ in MockResponse(text: "loaded").cacheControl("private, max-age=600") }
        let refreshes = Locked(0)
        let authenticator = BearerTokenAuthenticator(token: nil) { _ in refreshes.withLock { $0 += 1 } }
        authenticator.account = "alice"
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            interceptors: [authenticator], cache: cache)
        let outcome = load("me", policy: .returnCacheDataDontLoad)

        XCTAssertEqual(server.requestCount, 0, "a request that may not load was sent")
        XCTAssertEqual(refreshes.withLock { $0 }, 0, "a request the cache answers waited for a refresh")
        guard case .failure(let error) = outcome, error.isNotCached else { return XCTFail("\(outcome)") }
    }

    /// Alice's stale profile is stored; a `useCacheOnFailure` request for it is under way when she signs
    /// out, and the server fails. Her stored profile must not stand in for the failure after her
    /// sign-out, as the offline fallback doesn't.
    func testAFailureAfterTheSignOutGetsNoStoredReplyOfTheAccount() {
        let arrived = expectation(description: "second request at the server")
        let release = DispatchSemaphore(value: 0)
        let count = Locked(0)
        server.handler = { request in
            let number = count.withLock {
                $0 += 1
                return $0
            }
            guard number > 1 else {
                return MockResponse(text: "profile for \(request.header("Authorization") ?? "nobody")")
                    .cacheControl("private, max-age=0").etag("\"1\"")
            }
            arrived.fulfill()
            _ = release.wait(timeout: .now() + 10)
            return MockResponse(status: 500)
        }
        let authenticator = BearerTokenAuthenticator(token: nil) { completion in
            completion(.success(.init("unused")))
        }
        authenticator.setAccessToken("alice-token", account: "alice")
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            interceptors: [authenticator], cache: cache)
        XCTAssertEqual(body(load("me")), "profile for Bearer alice-token")

        var request = NetworkRequest<Data>(urlString: "me")
        request.cachePolicy = .useCacheOnFailure
        let outcome = Locked<Result<NetworkResponse<Data>, NetworkError>?>(nil)
        let answered = expectation(description: "answered")
        network.send(
            request,
            successHandler: { response in
                outcome.withLock { $0 = .success(response) }
                answered.fulfill()
            },
            errorHandler: { error in
                outcome.withLock { $0 = .failure(error) }
                answered.fulfill()
            })
        wait(for: [arrived], timeout: 5)
        authenticator.setAccessToken(nil)
        release.signal()
        wait(for: [answered], timeout: 10)

        let result = outcome.withLock { $0 } ?? .failure(.cancelled)
        XCTAssertNil(body(result), "alice's stored profile was shown after her sign-out: \(result)")
    }
}
