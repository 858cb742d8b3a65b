import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Each request's metrics say what the cache did and why (issue 50): a monitor, a log or an inspector
/// shows it beside the reply.
final class CacheReasonTests: CacheServerTestCase {
    private func decision(_ result: Result<NetworkResponse<Data>, NetworkError>) -> [String] {
        guard let metrics = try? result.get().metrics else { return ["no metrics"] }
        return [metrics.cacheStatus.map { "\($0)" } ?? "nil", metrics.cacheReason?.rawValue ?? "nil"]
    }

    func testAMissAHitARevalidationAndAReload() {
        server.handler = { request in
            MockResponse(text: "v1").cacheControl("max-age=60").etag("\"v1\"").notModified(
                ifMatching: request)
        }
        XCTAssertEqual(decision(load()), ["network", "notStored"])
        XCTAssertEqual(decision(load()), ["cache hit", "fresh"])
        clock.advance(by: 120)
        XCTAssertEqual(decision(load()), ["revalidated", "stale"])
        XCTAssertEqual(decision(load(policy: .reloadIgnoringCache)), ["network", "policyReloads"])
        clock.advance(by: 120)
        XCTAssertEqual(
            decision(load(policy: .returnCacheDataElseLoad)), ["stale cache hit", "policyAcceptsStored"])
        XCTAssertEqual(decision(load(method: .post)), ["network", "notCacheable"])
    }

    func testAStoredReplyStandingInForAFailureSaysTheNetworkFailed() {
        server.enqueue(MockResponse(text: "v1").cacheControl("max-age=60"))
        server.handler = { _ in MockResponse(status: 500, text: "down") }
        _ = load()
        clock.advance(by: 120)
        let result = load(policy: .useCacheOnFailure)
        XCTAssertEqual(body(result), "v1")
        let metrics = try? result.get().metrics
        XCTAssertNotNil(metrics?.cacheStatus?.staleError, "stale, for the 500")
        XCTAssertEqual(metrics?.cacheReason, .networkFailure)
    }

    /// Only the cache may answer and it has nothing: no reply, so no status, but the reason.
    func testAnUnsatisfiableRequestHasAReasonButNoStatus() {
        let monitor = ObservationRecorder()
        network = makeLayer(monitors: [monitor])
        let finished = monitor.expectFinishes(1, self)
        if case .success = load(policy: .returnCacheDataDontLoad) { XCTFail("nothing was stored") }
        wait(for: [finished], timeout: 10)
        XCTAssertNil(monitor.finishes.first?.metrics.cacheStatus)
        XCTAssertEqual(monitor.finishes.first?.metrics.cacheReason, .notStored)
        XCTAssertEqual(server.requestCount, 0)
    }
}
