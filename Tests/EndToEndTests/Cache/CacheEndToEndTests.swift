import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The layer's RFC 9111 cache against MockServer, one test per rule.
final class CacheEndToEndTests: XCTestCase {
    var server: MockServer!
    var network: NetworkLayer!
    var cache: ResponseCache!

    override func setUpWithError() throws {
        server = MockServer()
        try server.start()
        cache = ResponseCache(memoryCapacity: 1_000_000)
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            cache: cache)
    }

    override func tearDown() {
        server.stop()
    }

    /// Answers every request for a path with `reply`, as a real server revalidates.
    func serve(_ reply: @escaping @Sendable () -> MockResponse) {
        server.handler = { request in reply().notModified(ifMatching: request) }
    }

    func load(
        _ path: String = "items", policy: CachePolicy = .useProtocolCachePolicy,
        headers: [String: String] = [:], account: String? = nil,
        method: HTTPMethod = .get, file: StaticString = #filePath, line: UInt = #line
    ) -> Result<NetworkResponse<Data>, NetworkError> {
        var request = NetworkRequest<Data>(method: method, urlString: path, headers: headers)
        request.cachePolicy = policy
        request.account = account
        let done = expectation(description: "answered")
        nonisolated(unsafe) var outcome: Result<NetworkResponse<Data>, NetworkError>?
        network.send(
            request,
            successHandler: {
                outcome = .success($0)
                done.fulfill()
            },
            errorHandler: {
                outcome = .failure($0)
                done.fulfill()
            })
        wait(for: [done], timeout: 10)
        return outcome ?? .failure(.custom("no outcome"))
    }

    func body(_ result: Result<NetworkResponse<Data>, NetworkError>) -> String? {
        (try? result.get()).map { String(decoding: $0.data, as: UTF8.self) }
    }

    func status(_ result: Result<NetworkResponse<Data>, NetworkError>) -> CacheStatus? {
        (try? result.get())?.cacheStatus
    }

    // MARK: - Freshness

    func testFreshFromMaxAgeIsServedWithoutARoundTrip() throws {
        serve { MockResponse(text: "v1").cacheControl("max-age=60") }
        XCTAssertEqual(status(load()), .network)
        let second = load()
        XCTAssertEqual(body(second), "v1")
        XCTAssertEqual(status(second), .hit)
        XCTAssertEqual(server.requestCount(forPath: "/items"), 1)
        let metrics = try XCTUnwrap(second.get().metrics)
        XCTAssertEqual(metrics.bytesReceived, 0, "a hit receives nothing over the network")
    }

    func testFreshFromExpires() {
        serve {
            MockResponse(text: "v1").addingHeader(
                "Expires", MockResponse.httpDate(Date().addingTimeInterval(60))
            )
            .addingHeader("Date", MockResponse.httpDate(Date()))
        }
        _ = load()
        XCTAssertEqual(status(load()), .hit)
        XCTAssertEqual(server.requestCount(forPath: "/items"), 1)
    }

    func testHeuristicFreshnessFromLastModified() {
        serve { MockResponse(text: "v1").lastModified(Date().addingTimeInterval(-100_000)) }
        _ = load()
        XCTAssertEqual(status(load()), .hit)
        XCTAssertEqual(server.requestCount(forPath: "/items"), 1)
    }

    func testAgeAtTheLimitIsStale() {
        serve { MockResponse(text: "v1").cacheControl("max-age=60").addingHeader("Age", "60") }
        _ = load()
        XCTAssertEqual(status(load()), .network)
        XCTAssertEqual(server.requestCount(forPath: "/items"), 2)
    }

    func testNoStoreIsNeverStored() {
        serve { MockResponse(text: "v1").cacheControl("no-store, max-age=60") }
        _ = load()
        XCTAssertEqual(status(load()), .network)
        XCTAssertEqual(cache.currentMemoryUsage, 0)
    }

    // MARK: - Revalidation

    func testRevalidationWithETag() {
        serve { MockResponse(text: "v1").cacheControl("no-cache").etag("\"v1\"") }
        _ = load()
        let second = load()
        XCTAssertEqual(body(second), "v1")
        XCTAssertEqual(status(second), .revalidated)
        XCTAssertEqual((try? second.get())?.statusCode, 200, "a handler never sees our 304")
        XCTAssertEqual(server.recordedRequests.last?.header("If-None-Match"), "\"v1\"")
    }

    func testRevalidationWithLastModified() {
        let modified = Date().addingTimeInterval(-10)
        serve { MockResponse(text: "v1").cacheControl("max-age=0").lastModified(modified) }
        _ = load()
        XCTAssertEqual(status(load()), .revalidated)
        XCTAssertEqual(
            server.recordedRequests.last?.header("If-Modified-Since"), MockResponse.httpDate(modified))
    }

    func testChangedResourceReplacesTheEntry() {
        nonisolated(unsafe) var version = 1
        let lock = NSLock()
        serve {
            lock.withLock {
                MockResponse(text: "v\(version)").cacheControl("no-cache").etag("\"\(version)\"")
            }
        }
        _ = load()
        lock.withLock { version = 2 }
        XCTAssertEqual(body(load()), "v2")
        XCTAssertEqual(body(load()), "v2")
        XCTAssertEqual(server.recordedRequests.last?.header("If-None-Match"), "\"2\"")
    }

    func testACallersOwnConditionalRequestSeesThe304() {
        serve { MockResponse(text: "v1").cacheControl("max-age=60").etag("\"v1\"") }
        _ = load()
        var request = NetworkRequest<Data>(urlString: "items", headers: ["If-None-Match": "\"v1\""])
        request.acceptableStatusCodes = [200, 304]
        let done = expectation(description: "answered")
        nonisolated(unsafe) var code: Int?
        network.send(
            request,
            successHandler: {
                code = $0.statusCode
                done.fulfill()
            }, errorHandler: { _ in done.fulfill() })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(code, 304)
    }

    // MARK: - Vary and credentials

    func testVaryKeepsVariantsApart() {
        server.handler = { request in
            MockResponse(text: request.header("Accept-Language") ?? "none").cacheControl("max-age=60")
                .addingHeader("Vary", "Accept-Language")
        }
        XCTAssertEqual(body(load(headers: ["Accept-Language": "en"])), "en")
        XCTAssertEqual(status(load(headers: ["Accept-Language": "en"])), .hit)
        XCTAssertEqual(body(load(headers: ["Accept-Language": "fr"])), "fr")
        XCTAssertEqual(server.requestCount(forPath: "/items"), 2)
    }

    func testVaryStarIsNeverServed() {
        serve { MockResponse(text: "v1").cacheControl("max-age=60").addingHeader("Vary", "*") }
        _ = load()
        XCTAssertEqual(status(load()), .network)
    }

    func testAReplyForOneCredentialIsNeverServedToAnother() {
        server.handler = { request in
            MockResponse(text: request.header("Authorization") ?? "anonymous").cacheControl(
                "private, max-age=60")
        }
        XCTAssertEqual(body(load(headers: ["Authorization": "Bearer alice"])), "Bearer alice")
        XCTAssertEqual(body(load(headers: ["Authorization": "Bearer bob"])), "Bearer bob")
        XCTAssertEqual(body(load()), "anonymous")
        XCTAssertEqual(body(load(headers: ["Authorization": "Bearer alice"])), "Bearer alice")
        XCTAssertEqual(server.requestCount(forPath: "/items"), 3)
    }

    func testTheCredentialAnInterceptorSendsKeysTheEntry() {
        let token = TokenBox()
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            interceptors: [TokenInterceptor(token: token)], cache: cache)
        server.handler = { request in
            MockResponse(text: request.header("Authorization") ?? "none").cacheControl("private, max-age=60")
        }
        XCTAssertEqual(body(load()), "Bearer 1")
        XCTAssertEqual(status(load()), .hit)
        token.value = "2"  // a refreshed token is a new credential
        let refreshed = load()
        XCTAssertEqual(body(refreshed), "Bearer 2")
        XCTAssertEqual(status(refreshed), .network)
    }

    func testTheLoggerAndMonitorsSeeTheCacheStatus() {
        let lines = LineBox()
        let logged = expectation(description: "two summaries")
        logged.expectedFulfillmentCount = 2
        let logger = NetworkLogger(level: .requests) { line in
            if line.hasPrefix("✓") {
                lines.append(line)
                logged.fulfill()
            }
        }
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            monitors: [logger], cache: cache)
        serve { MockResponse(text: "v1").cacheControl("max-age=60") }
        _ = load()
        _ = load()
        wait(for: [logged], timeout: 10)
        XCTAssertFalse(lines.all[0].contains("cache hit"))
        XCTAssertTrue(lines.all[1].hasSuffix(", cache hit"), lines.all[1])
    }

    func testTwoLayersOnOneDirectoryShareTheDiskAndServeOffline() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-e2e-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = ResponseCache(memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory)
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            cache: first)
        serve { MockResponse(text: "saved").cacheControl("max-age=0") }
        XCTAssertEqual(body(load()), "saved")
        first.removeResponses(for: server.baseURL.appendingPathComponent("unrelated"))  // waits for the write
        let baseURL = server.baseURL
        server.stop()
        network = NetworkLayer(
            baseURL: baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            cache: ResponseCache(memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory))
        let offline = load(policy: .useCacheOnFailure)
        XCTAssertEqual(body(offline), "saved")
        XCTAssertNotNil(status(offline)?.staleError)
    }

    // MARK: - Invalidation

    func testUnsafeMethodInvalidatesItsURLAndLocation() {
        server.handler = { request in
            if request.method == "POST" {
                return MockResponse(status: 201, headers: ["Location": "/items/7"], body: Data())
            }
            return MockResponse(text: request.path).cacheControl("max-age=60")
        }
        _ = load("items")
        _ = load("items/7")
        XCTAssertEqual(status(load("items")), .hit)
        _ = load("items", method: .post)
        XCTAssertEqual(status(load("items")), .network)
        XCTAssertEqual(status(load("items/7")), .network)
    }

    /// The removal reaches the disk too: another cache on the directory (a relaunch) doesn't serve it.
    func testUnsafeMethodInvalidatesTheDiskEntry() {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-e2e-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = ResponseCache(memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory)
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            cache: disk)
        server.handler = { request in
            request.method == "POST"
                ? MockResponse(status: 204, body: Data())
                : MockResponse(text: "v1").cacheControl("max-age=60")
        }
        _ = load("items")
        XCTAssertEqual(status(load("items")), .hit)
        _ = load("items", method: .post)
        XCTAssertEqual(status(load("items", policy: .returnCacheDataDontLoad)), nil, "served after the POST")
        let flushed = expectation(description: "flushed")
        disk.flush { flushed.fulfill() }
        wait(for: [flushed], timeout: 5)
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            cache: ResponseCache(memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory))
        XCTAssertEqual(status(load("items", policy: .returnCacheDataDontLoad)), nil, "on disk after the POST")
    }

    // MARK: - Policies

    func testReloadIgnoringCacheGoesToTheNetwork() {
        serve { MockResponse(text: "v1").cacheControl("max-age=60").etag("\"v1\"") }
        _ = load()
        XCTAssertEqual(status(load(policy: .reloadIgnoringCache)), .network)
        XCTAssertNil(server.recordedRequests.last?.header("If-None-Match"))
    }

    func testRevalidateAlwaysAsks() {
        serve { MockResponse(text: "v1").cacheControl("max-age=60").etag("\"v1\"") }
        _ = load()
        XCTAssertEqual(status(load(policy: .revalidate)), .revalidated)
        XCTAssertEqual(server.requestCount(forPath: "/items"), 2)
    }

    func testReturnCacheDataElseLoadServesStaleData() {
        serve { MockResponse(text: "v1").cacheControl("max-age=0") }
        XCTAssertEqual(status(load(policy: .returnCacheDataElseLoad)), .network)
        XCTAssertEqual(status(load(policy: .returnCacheDataElseLoad)), .staleHit, "stale, and says so")
        XCTAssertEqual(server.requestCount(forPath: "/items"), 1)
    }

    func testReturnCacheDataDontLoadFailsWhenNothingIsStored() {
        let result = load(policy: .returnCacheDataDontLoad)
        guard case .failure(let error) = result else { return XCTFail("\(result)") }
        XCTAssertTrue(error.isNotCached)
        XCTAssertEqual(server.requestCount, 0)
    }

    func testReturnCacheDataDontLoadServesWhatIsStored() {
        serve { MockResponse(text: "v1").cacheControl("max-age=0") }
        _ = load()
        server.stop()
        XCTAssertEqual(body(load(policy: .returnCacheDataDontLoad)), "v1")
    }

    func testUseCacheOnFailureWhenTheServerIsDown() {
        serve { MockResponse(text: "v1").cacheControl("max-age=0") }
        _ = load()
        server.stop()
        let result = load(policy: .useCacheOnFailure)
        XCTAssertEqual(body(result), "v1")
        XCTAssertEqual(status(result), .stale(.timedOut))
        XCTAssertNotNil(status(result)?.staleError)
        guard case .failure = load() else { return XCTFail("served stale without the policy") }
    }

    func testUseCacheOnFailureWhenTheServerAnswers503() {
        nonisolated(unsafe) var failing = false
        let lock = NSLock()
        serve {
            lock.withLock { failing ? MockResponse(status: 503, text: "down") : MockResponse(text: "v1") }
        }
        _ = load()
        lock.withLock { failing = true }
        let result = load(policy: .useCacheOnFailure)
        XCTAssertEqual(body(result), "v1")
        XCTAssertEqual(status(result)?.staleError?.statusCode, 503)
        guard case .failure(let error) = load() else { return XCTFail("served stale without the policy") }
        XCTAssertEqual(error.statusCode, 503)
    }

    func testStaleIfErrorServesOnA500() {
        nonisolated(unsafe) var failing = false
        let lock = NSLock()
        serve {
            lock.withLock {
                failing
                    ? MockResponse(status: 500, text: "down")
                    : MockResponse(text: "v1").cacheControl("max-age=0, stale-if-error=600")
            }
        }
        _ = load()
        lock.withLock { failing = true }
        let result = load()
        XCTAssertEqual(body(result), "v1")
        XCTAssertEqual(status(result)?.staleError?.statusCode, 500)
    }

    func testCacheOffStoresNothing() {
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), cache: nil)
        serve { MockResponse(text: "v1").cacheControl("max-age=60") }
        _ = load()
        XCTAssertEqual(status(load()), .network)
        XCTAssertEqual(server.requestCount(forPath: "/items"), 2)
    }
}

/// Identical requests in flight share one send once their resource is known to be cacheable.
final class CacheCoalescingTests: XCTestCase {
    func testHundredIdenticalGETsReachTheServerOnceAndCancellingNinetyNineLeavesOne() throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        let gate = DispatchSemaphore(value: 0)
        let primed = NSLock()
        nonisolated(unsafe) var isPrimed = false
        server.handler = { request in
            if primed.withLock({ isPrimed }) { _ = gate.wait(timeout: .now() + 10) }
            return MockResponse(text: "v1").cacheControl("no-cache").etag("\"v1\"").notModified(
                ifMatching: request)
        }
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(),
            cache: ResponseCache())
        let first = expectation(description: "primed")
        network.get(
            urlString: "items", successHandler: { (_: Data) in first.fulfill() },
            errorHandler: { _ in first.fulfill() })
        wait(for: [first], timeout: 10)
        primed.withLock { isPrimed = true }

        let handled = expectation(description: "every handler once")
        handled.expectedFulfillmentCount = 100
        let outcomes = NSLock()
        nonisolated(unsafe) var cancelled = 0
        nonisolated(unsafe) var served: [NetworkResponse<Data>] = []
        var tasks: [NetworkTask] = []
        for _ in 0..<100 {
            tasks.append(
                network.send(
                    NetworkRequest<Data>(urlString: "items"),
                    successHandler: { response in
                        outcomes.withLock { served.append(response) }
                        handled.fulfill()
                    },
                    errorHandler: { error in
                        if case .cancelled = error { outcomes.withLock { cancelled += 1 } }
                        handled.fulfill()
                    }))
        }
        for task in tasks.dropLast() { task.cancel() }
        gate.signal()
        wait(for: [handled], timeout: 20)
        XCTAssertEqual(outcomes.withLock { cancelled }, 99)
        let survivor = outcomes.withLock { served }
        XCTAssertEqual(survivor.count, 1)
        XCTAssertEqual(survivor.first.map { String(decoding: $0.data, as: UTF8.self) }, "v1")
        XCTAssertEqual(survivor.first?.cacheStatus, .revalidated)
        XCTAssertEqual(server.requestCount(forPath: "/items"), 2, "primed once, then one shared revalidation")
    }

    func testHundredIdenticalGETsShareOneSend() throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        let gate = DispatchSemaphore(value: 0)
        let primed = NSLock()
        nonisolated(unsafe) var isPrimed = false
        server.handler = { request in
            if primed.withLock({ isPrimed }) { _ = gate.wait(timeout: .now() + 10) }
            return MockResponse(text: "v2").cacheControl("max-age=0").etag("\"v2\"")
        }
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(),
            cache: ResponseCache())
        let first = expectation(description: "primed")
        network.get(
            urlString: "items", successHandler: { (_: Data) in first.fulfill() },
            errorHandler: { _ in first.fulfill() })
        wait(for: [first], timeout: 10)
        primed.withLock { isPrimed = true }
        let handled = expectation(description: "every handler once")
        handled.expectedFulfillmentCount = 100
        let bodies = NSLock()
        nonisolated(unsafe) var received: [String] = []
        for _ in 0..<100 {
            network.get(
                urlString: "items",
                successHandler: { (data: Data) in
                    bodies.withLock { received.append(String(decoding: data, as: UTF8.self)) }
                    handled.fulfill()
                }, errorHandler: { _ in handled.fulfill() })
        }
        gate.signal()
        wait(for: [handled], timeout: 20)
        XCTAssertEqual(bodies.withLock { received }, Array(repeating: "v2", count: 100))
        XCTAssertEqual(server.requestCount(forPath: "/items"), 2)
    }
}

private final class TokenBox: @unchecked Sendable {
    private let lock = NSLock()
    private var current = "1"
    var value: String {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }
}

private struct TokenInterceptor: RequestInterceptor {
    let token: TokenBox

    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        var request = request
        request.setValue("Bearer \(token.value)", forHTTPHeaderField: "Authorization")
        completion(.success(request))
    }
}

private final class LineBox: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var all: [String] { lock.withLock { lines } }
    func append(_ line: String) { lock.withLock { lines.append(line) } }
}
