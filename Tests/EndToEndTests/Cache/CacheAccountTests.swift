import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache partitioned by who the user is, not by the token string: served after a refresh, across
/// launches and offline, to that account alone, and dropped at sign-out.
extension CacheEndToEndTests {
    /// A server that answers each user's profile privately, naming the token it saw.
    private func serveProfiles() {
        server.handler = { request in
            MockResponse(text: "profile for \(request.header("Authorization") ?? "nobody")")
                .cacheControl("private, max-age=600")
        }
    }

    /// `network` with an authenticator signed in as alice with `token`; the refresh answers `refresh`.
    @discardableResult
    private func signIn(
        token: String = "t1", expiresAt: Date? = nil, cache: ResponseCache? = nil,
        refresh: @escaping @Sendable () -> Result<String, NetworkError> = { .success("refreshed") }
    ) -> BearerTokenAuthenticator {
        let authenticator = BearerTokenAuthenticator(token: nil, refreshWindow: 0) { completion in
            completion(refresh().map { .init($0, expiresAt: Date().addingTimeInterval(3600)) })
        }
        authenticator.setAccessToken(token, expiresAt: expiresAt, account: "alice")
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            interceptors: [authenticator], cache: cache ?? self.cache)
        return authenticator
    }

    func testAnAccountsEntryIsServedAfterTheTokenChanges() {
        serveProfiles()
        let authenticator = signIn()
        XCTAssertEqual(body(load("me")), "profile for Bearer t1")
        authenticator.setAccessToken("t2", account: "alice")
        let second = load("me")
        XCTAssertEqual(status(second), .hit, "a new token orphaned the account's entry")
        XCTAssertEqual(body(second), "profile for Bearer t1")
        XCTAssertEqual(server.requestCount(forPath: "/me"), 1)
    }

    func testAnAccountsEntryIsServedAfterARelaunch() {
        serveProfiles()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) })
        func diskCache() -> ResponseCache {
            ResponseCache(
                memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory, fingerprintKey: key)
        }
        let first = diskCache()
        signIn(cache: first)
        XCTAssertEqual(status(load("me")), .network)
        let written = expectation(description: "written")
        first.flush { written.fulfill() }
        wait(for: [written], timeout: 5)
        // The next launch: a new cache on the same directory, a token refreshed meanwhile.
        signIn(token: "t2", cache: diskCache())
        let relaunched = load("me", policy: .returnCacheDataDontLoad)
        XCTAssertEqual(body(relaunched), "profile for Bearer t1")
        XCTAssertEqual(status(relaunched), .hit)
    }

    func testAnotherAccountOrNoneNeverSeesAnAccountsEntries() {
        serveProfiles()
        signIn()
        XCTAssertEqual(status(load("me")), .network)
        let bob = load("me", policy: .returnCacheDataDontLoad, account: "bob")
        XCTAssertTrue(bob.failure?.isNotCached == true, "bob was served alice's reply: \(bob)")
        // The same token without an account is another partition too.
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            cache: cache)
        let anonymous = load("me", policy: .returnCacheDataDontLoad, headers: ["Authorization": "Bearer t1"])
        XCTAssertTrue(anonymous.failure?.isNotCached == true, "\(anonymous)")
        // The layer's own account is alice's partition.
        network.account = "alice"
        XCTAssertEqual(body(load("me", policy: .returnCacheDataDontLoad)), "profile for Bearer t1")
    }

    func testSigningOutDropsTheAccountsPartition() async {
        serveProfiles()
        let authenticator = signIn()
        XCTAssertEqual(status(load("me")), .network)
        XCTAssertEqual(status(load("me", account: "bob")), .network)
        authenticator.setAccessToken(nil)
        XCTAssertNil(authenticator.account)
        await cache.flush()
        XCTAssertTrue(
            load("me", policy: .returnCacheDataDontLoad, account: "alice").failure?.isNotCached == true,
            "alice's reply outlived her sign-out")
        XCTAssertEqual(
            status(load("me", policy: .returnCacheDataDontLoad, account: "bob")), .hit,
            "another account's partition stays")
    }

    /// Opened offline the morning after: the expired token's refresh can't reach its server, and the
    /// account's stored reply is served, saying why. A request only the cache may answer needs no token:
    /// it is answered before the refresh is tried.
    func testOfflineWithAnExpiredTokenServesTheAccountsReply() throws {
        serveProfiles()
        let offline = Locked(false)
        let authenticator = signIn {
            offline.withLock { $0 } ? .failure(.transport(URLError(.notConnectedToInternet))) : .success("t2")
        }
        XCTAssertEqual(status(load("me")), .network, "stored while the token worked")
        offline.withLock { $0 = true }
        authenticator.setAccessToken("t1", expiresAt: Date().addingTimeInterval(-60), account: "alice")
        let reply = load("me", policy: .useCacheOnFailure)
        XCTAssertEqual(body(reply), "profile for Bearer t1", "\(reply)")
        XCTAssertEqual(try reply.get().cacheStatus.staleError?.urlErrorCode, .notConnectedToInternet)
        let cacheOnly = load("me", policy: .returnCacheDataDontLoad)
        XCTAssertEqual(body(cacheOnly), "profile for Bearer t1", "\(cacheOnly)")
        XCTAssertEqual(status(cacheOnly), .hit)
        XCTAssertEqual(server.requestCount(forPath: "/me"), 1)
        // Nothing of bob's is stored, and a policy that wants the network's answer gets the error.
        XCTAssertEqual(
            load("me", policy: .useCacheOnFailure, account: "bob").failure?.urlErrorCode,
            .notConnectedToInternet)
        XCTAssertEqual(
            load("me", policy: .reloadIgnoringCache).failure?.urlErrorCode, .notConnectedToInternet)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

extension NetworkError {
    fileprivate var urlErrorCode: URLError.Code? {
        if case .transport(let error) = self { return error.code }
        return nil
    }
}
