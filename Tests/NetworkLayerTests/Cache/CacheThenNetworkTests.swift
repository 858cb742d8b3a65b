import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Cache then network against MockServer: the stored reply first, then the network's, one completion.
final class CacheThenNetworkTests: XCTestCase {
    var server: MockServer!
    var network: NetworkLayer!

    override func setUpWithError() throws {
        server = MockServer()
        try server.start()
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            cache: ResponseCache(memoryCapacity: 1_000_000))
    }

    override func tearDown() {
        server.stop()
    }

    /// What one call delivered: its updates in order, when the first came, and its completion's error.
    struct Delivered {
        var updates: [(body: String, status: CacheStatus)] = []
        var firstUpdateAt: ContinuousClock.Instant?
        var completions: [NetworkError?] = []
        var bodies: [String] { updates.map(\.body) }
        var statuses: [CacheStatus] { updates.map(\.status) }
    }

    /// Serves `body` with `ETag` and `Cache-Control`, answering a matching conditional request with 304.
    func serve(_ body: String, etag: String = "\"1\"", cacheControl: String = "max-age=60") {
        server.handler = { request in
            MockResponse(text: body).etag(etag).cacheControl(cacheControl).notModified(ifMatching: request)
        }
    }

    /// Stores the server's reply with an ordinary load.
    func store(file: StaticString = #filePath, line: UInt = #line) {
        let done = expectation(description: "stored")
        network.send(
            NetworkRequest<Data>(urlString: "items"), successHandler: { _ in done.fulfill() },
            errorHandler: { XCTFail("\($0)", file: file, line: line) })
        wait(for: [done], timeout: 10)
    }

    /// Loads `request` and waits for its completion; `afterFirstUpdate` gets the task once the first
    /// update ran and the call returned it.
    @discardableResult
    func load(
        _ request: NetworkRequest<Data> = NetworkRequest<Data>(urlString: "items"),
        afterFirstUpdate: (@Sendable (NetworkTask) -> Void)? = nil
    ) -> Delivered {
        let delivered = Locked(Delivered())
        let task = Locked<(task: NetworkTask?, updated: Bool)>((nil, false))
        let done = expectation(description: "completed")
        let started = network.sendCacheThenNetwork(
            request,
            updateHandler: { response in
                let isFirst = delivered.withLock {
                    $0.updates.append((String(decoding: response.data, as: UTF8.self), response.cacheStatus))
                    $0.firstUpdateAt = $0.firstUpdateAt ?? .now
                    return $0.updates.count == 1
                }
                guard isFirst else { return }
                let running = task.withLock {
                    $0.updated = true
                    return $0.task
                }
                if let running { afterFirstUpdate?(running) }
            },
            completionHandler: { error in
                delivered.withLock { $0.completions.append(error) }
                done.fulfill()
            })
        let updated = task.withLock {
            $0.task = started
            return $0.updated
        }
        if updated { afterFirstUpdate?(started) }
        wait(for: [done], timeout: 10)
        return delivered.withLock { $0 }
    }

    func testTheStoredReplyThenTheNetworks() {
        serve("v1")
        store()
        serve("v2", etag: "\"2\"")
        let delivered = load()
        XCTAssertEqual(delivered.bodies, ["v1", "v2"])
        XCTAssertEqual(delivered.statuses, [.hit, .network])
        XCTAssertEqual(delivered.completions.count, 1)
        XCTAssertNil(delivered.completions.first ?? nil)
        XCTAssertEqual(server.requestCount(forPath: "/items"), 2, "the stored phase is never sent")
        XCTAssertEqual(server.recordedRequests.last?.header("If-None-Match"), "\"1\"")
    }

    func testAServerThatAnswers304RevalidatesTheStoredValue() {
        serve("v1")
        store()
        let delivered = load()
        XCTAssertEqual(delivered.bodies, ["v1", "v1"])
        XCTAssertEqual(delivered.statuses, [.hit, .revalidated])
        XCTAssertNil(delivered.completions.first ?? nil)
    }

    func testAStaleStoredReplySaysSo() {
        serve("v1", cacheControl: "max-age=0")
        store()
        let delivered = load()
        XCTAssertEqual(delivered.bodies, ["v1", "v1"])
        XCTAssertEqual(delivered.statuses, [.staleHit, .revalidated])
    }

    func testNothingStoredDeliversOnlyTheNetworksReply() {
        serve("v1")
        let delivered = load()
        XCTAssertEqual(delivered.bodies, ["v1"])
        XCTAssertEqual(delivered.statuses, [.network])
        XCTAssertEqual(delivered.completions.count, 1)
        XCTAssertEqual(server.requestCount(forPath: "/items"), 1)
    }

    func testANetworkFailureAfterTheStoredReplyGoesToTheCompletion() {
        serve("v1")
        store()
        server.handler = { _ in MockResponse(status: 503) }
        let delivered = load()
        XCTAssertEqual(delivered.bodies, ["v1"], "the stored reply stands")
        XCTAssertEqual(delivered.completions.count, 1)
        guard case .unacceptableStatusCode(503, _, _)? = delivered.completions.first ?? nil else {
            return XCTFail("\(delivered.completions)")
        }
    }

    /// `stale-if-error` makes the revalidation's failure the stored reply again: it isn't shown twice,
    /// and the completion still says the network failed.
    func testAStoredReplyStandingInForTheFailureIsTheFailure() {
        serve("v1", cacheControl: "max-age=60, stale-if-error=600")
        store()
        server.handler = { _ in MockResponse(status: 503) }
        let delivered = load()
        XCTAssertEqual(delivered.bodies, ["v1"])
        guard case .unacceptableStatusCode(503, _, _)? = delivered.completions.first ?? nil else {
            return XCTFail("\(delivered.completions)")
        }
    }

    func testCancellingBetweenThePhasesEndsBoth() {
        serve("v1")
        store()
        server.handler = { _ in MockResponse(text: "v2").delayed(beforeHeaders: 5) }
        let delivered = load(afterFirstUpdate: { $0.cancel() })
        XCTAssertEqual(delivered.bodies, ["v1"])
        XCTAssertEqual(delivered.completions.count, 1)
        guard case .cancelled? = delivered.completions.first ?? nil else {
            return XCTFail("\(delivered.completions)")
        }
    }

    func testCancelAllEndsTheCall() {
        serve("v1")
        store()
        server.handler = { _ in MockResponse(text: "v2").delayed(beforeHeaders: 5) }
        let delivered = load(afterFirstUpdate: { [network] _ in network?.cancelAll() })
        XCTAssertEqual(delivered.bodies, ["v1"])
        guard case .cancelled? = delivered.completions.first ?? nil else {
            return XCTFail("\(delivered.completions)")
        }
    }

    /// The measure: the server holds its reply for a second; the stored one doesn't wait for it.
    func testTheStoredReplyArrivesWithoutWaitingForTheNetwork() {
        serve("v1")
        store()
        server.handler = { _ in MockResponse(text: "v2").delayed(beforeHeaders: 1) }
        let start = ContinuousClock.now
        let delivered = load()
        XCTAssertEqual(delivered.bodies, ["v1", "v2"])
        let first = (delivered.firstUpdateAt ?? start + .seconds(1)) - start
        XCTAssertLessThan(first, .milliseconds(50))
    }

    /// A named account's stored reply is read before the interceptors: no token refresh comes first.
    func testAnAccountsStoredPhaseRunsNoInterceptor() {
        let adapted = CountingInterceptor()
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            interceptors: [adapted], cache: ResponseCache(memoryCapacity: 1_000_000))
        network.account = "alice"
        serve("v1")
        store()
        XCTAssertEqual(adapted.count, 1)
        let delivered = load()
        XCTAssertEqual(delivered.statuses, [.hit, .revalidated])
        XCTAssertEqual(adapted.count, 2, "only the network phase is adapted")
    }

    func testASubclassOverridingSendSeesBothPhases() {
        let spy = SendSpy(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5)
        network = spy
        serve("v1")
        store()
        XCTAssertEqual(load().bodies, ["v1", "v1"])
        XCTAssertEqual(spy.policies, [.useProtocolCachePolicy, .returnCacheDataDontLoad, .revalidate])
    }

    func testARequestTheCacheNeverAnswersHasOnlyTheNetworkPhase() {
        server.handler = { _ in MockResponse(text: "created") }
        let delivered = load(NetworkRequest<Data>(method: .post, urlString: "items"))
        XCTAssertEqual(delivered.bodies, ["created"])
        XCTAssertEqual(server.requestCount(forPath: "/items"), 1, "a POST is sent once")
    }

    /// Called from the main thread with a memory cache, the stored phase is answered in place: its reply
    /// is still decoded off the main thread, as any request's with queue delivery.
    func testTheStoredReplyIsNotDecodedOnTheCallersThread() throws {
        XCTAssertTrue(Thread.isMainThread)
        server.handler = { _ in try MockResponse.json([1]).cacheControl("max-age=60") }
        store()
        let done = expectation(description: "completed")
        network.sendCacheThenNetwork(
            NetworkRequest<ThreadProbe>(urlString: "items"), updateHandler: { _ in },
            completionHandler: { _ in done.fulfill() })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(ThreadProbe.decodedOnMainThread.withLock { $0 }, [false, false])
    }

    func testTheAsyncFormYieldsTheStoredReplyThenThrowsTheNetworksError() async throws {
        serve("v1")
        await storeAsync()
        serve("v2", etag: "\"2\"")
        var bodies: [String] = []
        for try await response in network.sendCacheThenNetwork(NetworkRequest<Data>(urlString: "items")) {
            bodies.append(String(decoding: response.data, as: UTF8.self))
        }
        XCTAssertEqual(bodies, ["v1", "v2"])
        server.handler = { _ in MockResponse(status: 503) }
        bodies = []
        do {
            for try await response in network.sendCacheThenNetwork(NetworkRequest<Data>(urlString: "items")) {
                bodies.append(String(decoding: response.data, as: UTF8.self))
            }
            XCTFail("the network's failure wasn't thrown")
        } catch {
            XCTAssertEqual(bodies, ["v2"], "the stored reply came first")
            guard case .unacceptableStatusCode(503, _, _) = error else { return XCTFail("\(error)") }
        }
    }

    private func storeAsync() async {
        _ = try? await network.send(NetworkRequest<Data>(urlString: "items"))
    }
}

/// Counts the attempts it adapts.
private final class CountingInterceptor: RequestInterceptor {
    private let adapted = Locked(0)
    var count: Int { adapted.withLock { $0 } }

    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        adapted.withLock { $0 += 1 }
        completion(.success(request))
    }
}

/// Records the cache policy of every request its `send` is given.
private final class SendSpy: NetworkLayer, @unchecked Sendable {
    private let sent = Locked<[CachePolicy]>([])
    var policies: [CachePolicy] { sent.withLock { $0 } }

    override func send<Value>(
        _ request: NetworkRequest<Value>, successHandler: @escaping (NetworkResponse<Value>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        sent.withLock { $0.append(request.cachePolicy) }
        return super.send(request, successHandler: successHandler, errorHandler: errorHandler)
    }
}

/// Notes whether each value was decoded on the main thread.
private struct ThreadProbe: Decodable {
    static let decodedOnMainThread = Locked<[Bool]>([])

    init(from decoder: any Decoder) throws {
        Self.decodedOnMainThread.withLock { $0.append(Thread.isMainThread) }
    }
}
