import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a stored reply must never be served for: another user, another URL, a caller who asked for the
/// network's answer, or another caller's policy.
extension CacheEndToEndTests {
    /// A layer whose session keeps cookies, as an app that signs in with a cookie has.
    private func cookieLayer() -> NetworkLayer {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .always
        return NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: configuration, callbackQueue: .global(),
            timeout: 5, cache: cache)
    }

    /// Makes `network` a layer with a disk cache and a session that keeps no cookies (so a request is
    /// the twin of the one before it); returns the cache's directory.
    private func useDiskCacheWithoutCookies() -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        cache = ResponseCache(memoryCapacity: 1_000_000, diskCapacity: 1_000_000, directory: directory)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieAcceptPolicy = .never
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: configuration, callbackQueue: .global(),
            timeout: 5, cache: cache)
        return directory
    }

    func testCookiesTheSessionAddsKeyTheEntry() throws {
        server.handler = { request in
            switch request.path {
            case "/login-a": MockResponse(headers: ["Set-Cookie": "session=A; Path=/"], text: "ok")
            case "/login-b": MockResponse(headers: ["Set-Cookie": "session=B; Path=/"], text: "ok")
            default:
                MockResponse(text: "profile for \(request.header("Cookie") ?? "nobody")")
                    .cacheControl("private, max-age=600")
            }
        }
        network = cookieLayer()
        _ = try load("login-a").get()
        XCTAssertEqual(body(load("me")), "profile for session=A")
        XCTAssertEqual(status(load("me")), .hit, "the same user is served from the cache")
        _ = try load("login-b").get()
        let second = load("me")
        XCTAssertEqual(body(second), "profile for session=B", "user B was served user A's reply")
        XCTAssertEqual(status(second), .network)
    }

    /// A cookie re-issued by every reply (a load balancer's stickiness cookie) doesn't make a reply
    /// that isn't `private` one user's: it is still served from the cache.
    func testACookieReissuedByEveryReplyDoesNotDefeatTheCacheForRepliesThatArentPrivate() throws {
        let count = Locked(0)
        server.handler = { _ in
            let next = count.withLock { value in
                value += 1
                return value
            }
            return MockResponse(headers: ["Set-Cookie": "AWSALB=v\(next); Path=/"], text: "shared")
                .cacheControl("max-age=600")
        }
        network = cookieLayer()
        XCTAssertEqual(status(load("catalog")), .network)
        XCTAssertEqual(status(load("catalog")), .hit)
        XCTAssertEqual(status(load("catalog")), .hit)
        XCTAssertEqual(server.requestCount(forPath: "/catalog"), 1)
    }

    func testEveryCredentialHeaderKeysTheEntry() throws {
        serve { MockResponse(text: "mine").cacheControl("private, max-age=600") }
        for name in ["X-Api-Key", "X-Auth-Token", "Proxy-Authorization"] {
            _ = try load("items-\(name)", headers: [name: "first"]).get()
            XCTAssertEqual(status(load("items-\(name)", headers: [name: "first"])), .hit, name)
            XCTAssertEqual(status(load("items-\(name)", headers: [name: "second"])), .network, name)
        }
    }

    func testARedirectTargetsReplyIsNotStoredForTheRedirectingURL() throws {
        let target = Locked("/b")
        server.handler = { request in
            switch request.path {
            case "/a": MockResponse(status: 302, headers: ["Location": target.withLock { $0 }])
            case "/b": MockResponse(text: "B").cacheControl("max-age=3600")
            default: MockResponse(text: "C").cacheControl("max-age=3600")
            }
        }
        XCTAssertEqual(body(load("a")), "B")
        target.withLock { $0 = "/c" }
        let second = load("a")
        XCTAssertEqual(body(second), "C", "a temporary redirect was answered from the cache")
        XCTAssertEqual(status(second), .network)
        XCTAssertEqual(server.requestCount(forPath: "/a"), 2)
    }

    func testASetCookieFieldIsNotStored() throws {
        let directory = useDiskCacheWithoutCookies()
        serve {
            MockResponse(headers: ["Set-Cookie": "session=SESSION-SECRET; HttpOnly"], text: "v1")
                .cacheControl("max-age=600")
        }
        XCTAssertEqual(try load().get().headers["Set-Cookie"], "session=SESSION-SECRET; HttpOnly")
        let hit = try load().get()
        XCTAssertEqual(hit.cacheStatus, .hit)
        XCTAssertNil(hit.headers["Set-Cookie"], "a hit set the cookie again")
        // Disk writes run in order on the cache's disk queue, and a removal waits for them: once it
        // returns, the entry is on disk.
        cache.removeResponses(for: try XCTUnwrap(URL(string: "https://unrelated.example/")))
        let files = try FileManager.default.contentsOfDirectory(
            at: directory, includingPropertiesForKeys: nil)
        XCTAssertFalse(files.isEmpty)
        for file in files {
            XCTAssertNil(try Data(contentsOf: file).range(of: Data("SESSION-SECRET".utf8)), "cookie on disk")
        }
    }

    func testReloadIgnoringCacheDeliversAServerError() throws {
        server.enqueue(MockResponse(text: "old").cacheControl("max-age=60, stale-if-error=600"))
        server.enqueue(MockResponse(status: 503, text: "down"))
        XCTAssertEqual(body(load()), "old")
        let reload = load(policy: .reloadIgnoringCache)
        XCTAssertEqual(server.requestCount(forPath: "/items"), 2)
        guard case .failure(let error) = reload else {
            return XCTFail("a reload got the stored reply: \(String(describing: body(reload)))")
        }
        XCTAssertEqual(error.statusCode, 503)
    }

    func testIdenticalRequestsWithDifferentPoliciesEachGetTheirOwnOutcome() throws {
        server.enqueue(MockResponse(text: "saved").cacheControl("max-age=0").etag("\"v1\""))
        XCTAssertEqual(body(load()), "saved")
        // Both revalidate the stale entry; the server fails slowly, so both are in flight together.
        server.handler = { _ in MockResponse(status: 503, text: "down").delayed(beforeHeaders: 0.3) }
        let outcomes = Locked([CachePolicy: Result<NetworkResponse<Data>, NetworkError>]())
        let done = expectation(description: "both answered")
        done.expectedFulfillmentCount = 2
        for policy in [CachePolicy.useProtocolCachePolicy, .useCacheOnFailure] {
            var request = NetworkRequest<Data>(method: .get, urlString: "items")
            request.cachePolicy = policy
            network.send(
                request,
                successHandler: { response in
                    outcomes.withLock { $0[policy] = .success(response) }
                    done.fulfill()
                },
                errorHandler: { error in
                    outcomes.withLock { $0[policy] = .failure(error) }
                    done.fulfill()
                })
        }
        wait(for: [done], timeout: 10)
        let results = outcomes.withLock { $0 }
        XCTAssertEqual(
            results[.useProtocolCachePolicy].flatMap { try? $0.get() }?.data, nil, "default: the 503")
        let offline = try XCTUnwrap(results[.useCacheOnFailure]).get()
        XCTAssertEqual(String(decoding: offline.data, as: UTF8.self), "saved")
        XCTAssertTrue(offline.cacheStatus.isFromCache)
    }

    /// A 304 can carry a cookie, or say the reply must no longer be kept: neither is stored.
    func testA304sCookieAndNoStoreAreHonoured() throws {
        let directory = useDiskCacheWithoutCookies()
        server.enqueue(MockResponse(text: "v1").cacheControl("max-age=0").etag("\"v1\""))
        server.enqueue(
            MockResponse(
                status: 304,
                headers: [
                    "ETag": "\"v1\"", "Cache-Control": "max-age=600", "Set-Cookie": "session=SESSION-SECRET",
                ]))
        _ = try load().get()
        XCTAssertEqual(status(load()), .revalidated)
        let hit = try load().get()
        XCTAssertEqual(hit.cacheStatus, .hit)
        XCTAssertNil(hit.headers["Set-Cookie"], "a hit set the 304's cookie again")
        // Disk writes run in order on the cache's disk queue, and a removal waits for them.
        cache.removeResponses(for: try XCTUnwrap(URL(string: "https://unrelated.example/")))
        for file in try FileManager.default.contentsOfDirectory(
            at: directory, includingPropertiesForKeys: nil)
        {
            XCTAssertNil(try Data(contentsOf: file).range(of: Data("SESSION-SECRET".utf8)), "cookie on disk")
        }

        server.enqueue(MockResponse(text: "w1").cacheControl("max-age=0").etag("\"w1\""))
        server.enqueue(MockResponse(status: 304, headers: ["ETag": "\"w1\"", "Cache-Control": "no-store"]))
        _ = try load("other").get()
        XCTAssertEqual(status(load("other")), .revalidated)
        guard case .failure(let error) = load("other", policy: .returnCacheDataDontLoad), error.isNotCached
        else {
            return XCTFail("a no-store 304 left the entry in the cache")
        }
    }

    /// A 304 about another version (another `ETag`) can't revalidate the stored one: the request is sent
    /// again without validators, and the new version is what the caller gets and the cache keeps.
    func testA304ForAnotherVersionIsAskedAgainWithoutValidators() throws {
        let modified = MockResponse.httpDate(Date().addingTimeInterval(-100))
        server.enqueue(
            MockResponse(text: "v1").cacheControl("max-age=0").etag("\"v1\"").addingHeader(
                "Last-Modified", modified))
        server.enqueue(
            MockResponse(status: 304, headers: ["ETag": "\"v2\"", "Cache-Control": "max-age=600"]))
        server.enqueue(MockResponse(text: "v2").cacheControl("max-age=600").etag("\"v2\""))
        XCTAssertEqual(body(load()), "v1")
        let second = load()
        XCTAssertEqual(body(second), "v2")
        XCTAssertEqual(status(second), .network)
        XCTAssertEqual(status(load()), .hit)
        let requests = server.recordedRequests
        guard requests.count == 3 else { return XCTFail("\(requests.count) requests, not 3") }
        XCTAssertNotNil(requests[1].header("If-None-Match"))
        XCTAssertNil(requests[2].header("If-None-Match"), "asked again with the validators that failed")
    }

    func testA501WithFreshnessIsStored() throws {
        serve { MockResponse(status: 501, text: "nope").cacheControl("max-age=600") }
        XCTAssertEqual(load().failureStatusCode, 501)
        XCTAssertEqual(load().failureStatusCode, 501)
        XCTAssertEqual(server.requestCount(forPath: "/items"), 1, "a 501 with max-age was fetched again")
    }
}

extension Result where Failure == NetworkError {
    fileprivate var failureStatusCode: Int? {
        guard case .failure(let error) = self else { return nil }
        return error.statusCode
    }
}
