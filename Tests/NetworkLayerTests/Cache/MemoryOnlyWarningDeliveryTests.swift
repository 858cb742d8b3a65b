import Foundation
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The memory-only warning is told once per cache and reason, and "told" means a monitor heard it: a
/// warning handed to a request whose monitors were already told it finished (a shared request storing for
/// a caller who cancelled) is not used up (issue 44).
final class MemoryOnlyWarningDeliveryTests: XCTestCase {
    private let url = URL(string: "https://api.example.com/feed")!

    func testAWarningToAFinishedRequestIsToldThroughTheNextLiveOne() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        let cache = ResponseCache(memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory)
        let recorder = WarningRecorder()
        let group = try XCTUnwrap(MonitorGroup([recorder]))
        let cancelled = call(on: group, path: "/cancelled")
        cancelled.channel.finish { _ in }
        let (live, later) = (call(on: group, path: "/live"), call(on: group, path: "/later"))

        for caller in [cancelled, live, later] { store(in: cache, reportingTo: caller) }

        let drained = expectation(description: "the monitors' queue drained")
        live.channel.finish { _ in drained.fulfill() }
        wait(for: [drained], timeout: 5)
        XCTAssertEqual(recorder.paths, ["/live"], "told once, to the first request still watched")
    }

    private func call(on group: MonitorGroup, path: String) -> MonitoredCall {
        MonitoredCall(
            channel: group.channel(),
            request: MonitoredRequest(
                method: .get, url: url.deletingLastPathComponent().appendingPathComponent(path)))
    }

    /// A reply to a request with credentials and no account: a cache without a `fingerprintKey` keeps it
    /// in memory only.
    private func store(in cache: ResponseCache, reportingTo caller: MonitoredCall) {
        let now = Date()
        cache.store(
            statusCode: 200, headers: ["Cache-Control": "max-age=60"], body: Data("feed".utf8),
            for: .init(
                url: url,
                headers: HeaderFields(["Authorization": "Bearer t1"])), requestTime: now, responseTime: now,
            reportingMemoryOnly: { caller.cacheKeptInMemoryOnly(because: $0, claim: $1) })
    }
}

private final class WarningRecorder: NetworkMonitor, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    var paths: [String] { lock.withLock { stored } }

    func didKeepInMemoryOnly(_ request: MonitoredRequest, because reason: ResponseCache.MemoryOnlyReason) {
        lock.withLock { stored.append(request.url?.path ?? "") }
    }
}
