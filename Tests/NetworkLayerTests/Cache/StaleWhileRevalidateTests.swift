import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// RFC 5861 `stale-while-revalidate`: within the window a request is answered from the cache at once and
/// one conditional request, an ordinary request of the layer, refreshes the entry in the background.
final class StaleWhileRevalidateTests: CacheServerTestCase {
    private let watcher = RevalidationWatcher()
    private let version = Shared(1)
    /// While set, the server holds each reply until `gate` is signalled.
    private let holding = Shared(false)
    private let gate = DispatchSemaphore(value: 0)

    override func setUpWithError() throws {
        try super.setUpWithError()
        network = makeLayer(monitors: [watcher])
        let (version, holding, gate) = (version, holding, gate)
        server.handler = { request in
            if holding.value { _ = gate.wait(timeout: .now() + 10) }
            let current = version.value
            return MockResponse(text: "v\(current)").cacheControl(maxAge: 60, staleWhileRevalidate: 120)
                .etag("\"\(current)\"").notModified(ifMatching: request)
        }
    }

    /// Stored at the start, then 90 s on: stale, 30 s into its 120 s window; the server has a version 2.
    private func primeAndAge() {
        XCTAssertEqual(status(load()), .network)
        clock.advance(by: 90)
        version.value = 2
    }

    func testInsideTheWindowTheStoredReplyIsServedAndOneConditionalRequestRefreshesIt() {
        primeAndAge()
        let revalidated = watcher.expectRevalidation(self)
        let served = load()
        XCTAssertEqual(body(served), "v1")
        XCTAssertEqual(status(served), .staleWhileRevalidating)
        XCTAssertEqual(status(served)?.isFromCache, true)
        wait(for: [revalidated], timeout: 10)
        XCTAssertEqual(server.requestCount, 2)
        XCTAssertEqual(server.recordedRequests.last?.header("If-None-Match"), "\"1\"", "conditional")
        let next = load()
        XCTAssertEqual(body(next), "v2", "the next call gets the refreshed entry")
        XCTAssertEqual(status(next), .hit)
        XCTAssertEqual(server.requestCount, 2)
        XCTAssertEqual(watcher.revalidations.count, 1)
        XCTAssertEqual(try watcher.revalidations.first?.get().cacheStatus, .network)
    }

    /// Twenty callers at once are all served while the server still holds the one revalidation.
    func testConcurrentCallersShareOneRevalidation() {
        primeAndAge()
        holding.value = true
        let revalidated = watcher.expectRevalidation(self)
        let served = expectation(description: "every caller served")
        served.expectedFulfillmentCount = 20
        let statuses = Shared<[CacheStatus]>([])
        let network = network!
        DispatchQueue.concurrentPerform(iterations: 20) { _ in
            network.send(
                NetworkRequest<Data>(urlString: "items"),
                successHandler: { response in
                    statuses.mutate { $0.append(response.cacheStatus) }
                    served.fulfill()
                }, errorHandler: { _ in served.fulfill() })
        }
        wait(for: [served], timeout: 10)
        holding.value = false
        gate.signal()
        wait(for: [revalidated], timeout: 10)
        XCTAssertEqual(statuses.value, Array(repeating: .staleWhileRevalidating, count: 20))
        XCTAssertEqual(server.requestCount, 2, "primed once, then one revalidation for twenty callers")
        XCTAssertEqual(body(load()), "v2")
        XCTAssertEqual(watcher.revalidations.count, 1)
    }

    func testTheLoggerMarksTheRevalidation() {
        let lines = Shared<[String]>([])
        let logger = NetworkLogger(level: .requests) { line in lines.mutate { $0.append(line) } }
        network = makeLayer(monitors: [logger, watcher])
        primeAndAge()
        let revalidated = watcher.expectRevalidation(self)
        _ = load()
        wait(for: [revalidated], timeout: 10)
        // The logger comes first among the monitors: its line is written before the watcher is told.
        let marked = lines.value.filter { $0.contains("(revalidation)") }
        XCTAssertEqual(marked.count, 1, "\(lines.value)")
        XCTAssertTrue(marked.first?.contains("/items (revalidation) → 200") == true, "\(marked)")
    }

    func testPastTheWindowTheRequestWaitsForTheNetwork() {
        XCTAssertEqual(status(load()), .network)
        clock.advance(by: 200)
        version.value = 2
        let result = load()
        XCTAssertEqual(body(result), "v2")
        XCTAssertEqual(status(result), .network)
        XCTAssertEqual(server.recordedRequests.last?.header("If-None-Match"), "\"1\"")
        XCTAssertEqual(watcher.revalidations.count, 0, "no background request")
    }

    /// The revalidation goes through the policies: its 401 refreshes the token, and it is sent again.
    func testARevalidationRefreshesAnExpiredTokenAsAnyRequest() throws {
        let refreshes = Shared(0)
        let authenticator = BearerTokenAuthenticator(accessToken: "old") { completion in
            refreshes.mutate { $0 += 1 }
            completion(.success("new"))
        }
        authenticator.account = "user-1"
        network = makeLayer(monitors: [watcher], interceptors: [authenticator])
        let (version, oldTokenWorks) = (version, Shared(true))
        server.handler = { request in
            if request.header("Authorization") == "Bearer old", !oldTokenWorks.value {
                return MockResponse(status: 401)
            }
            let current = version.value
            return MockResponse(text: "v\(current)").cacheControl(maxAge: 60, staleWhileRevalidate: 120)
                .etag("\"\(current)\"").notModified(ifMatching: request)
        }
        primeAndAge()
        oldTokenWorks.value = false
        let revalidated = watcher.expectRevalidation(self)
        XCTAssertEqual(status(load()), .staleWhileRevalidating)
        wait(for: [revalidated], timeout: 10)
        XCTAssertEqual(refreshes.value, 1)
        XCTAssertEqual(try watcher.revalidations.first?.get().statusCode, 200)
        let retried = try XCTUnwrap(server.recordedRequests.last)
        XCTAssertEqual(retried.header("Authorization"), "Bearer new")
        XCTAssertEqual(server.recordedRequests[1].header("If-None-Match"), "\"1\"", "conditional")
        XCTAssertEqual(body(load()), "v2")
        XCTAssertEqual(server.requestCount, 3, "primed, refused, sent again")
    }

    /// `cancelAll()` stops a revalidation under way; the next caller in the window starts another.
    func testCancelAllStopsARevalidation() throws {
        primeAndAge()
        holding.value = true
        let cancelled = watcher.expectRevalidation(self)
        XCTAssertEqual(status(load()), .staleWhileRevalidating)
        XCTAssertTrue(
            clock.wait { _ in self.server.requestCount == 2 }, "the revalidation reached the server")
        network.cancelAll()
        wait(for: [cancelled], timeout: 10)
        holding.value = false
        gate.signal()
        guard case .failure(.cancelled) = watcher.revalidations.first else {
            return XCTFail("\(String(describing: watcher.revalidations.first))")
        }
        let again = watcher.expectRevalidation(self)
        XCTAssertEqual(status(load()), .staleWhileRevalidating, "the entry is still stale")
        wait(for: [again], timeout: 10)
        XCTAssertEqual(body(load()), "v2")
    }
}

/// Records the layer's background revalidations as monitors see them.
private final class RevalidationWatcher: NetworkMonitor, @unchecked Sendable {
    // `@unchecked`: `lock` guards both.
    private let lock = NSLock()
    private var finished: [Result<NetworkResponse<Data>, NetworkError>] = []
    private var waiting: XCTestExpectation?

    var observesAttempts: Bool { false }

    var revalidations: [Result<NetworkResponse<Data>, NetworkError>] { lock.withLock { finished } }

    /// Fulfilled when the next revalidation finishes.
    func expectRevalidation(_ test: XCTestCase) -> XCTestExpectation {
        let expectation = test.expectation(description: "a revalidation finished")
        lock.withLock { waiting = expectation }
        return expectation
    }

    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        guard request.isRevalidation else { return }
        let expectation = lock.withLock {
            finished.append(result)
            defer { waiting = nil }
            return waiting
        }
        expectation?.fulfill()
    }
}
