import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A disk cache that can't keep what it is given says so, once per cache and reason: to the monitors and
/// in ``NetworkLogger``, naming the fix. The upgrading app's case: a signed-in feed (an authenticator
/// without an account) and a cache with a directory but no `fingerprintKey` kept nothing on disk, silently.
extension CacheEndToEndTests {
    private struct Watched {
        let recorder: EventRecorder
        let lines: LineCollector
    }

    /// `network`, signed in without an account, with a disk cache (a `fingerprintKey` if `key`) and a
    /// recording monitor and a logger at `.errors`, the quietest level, which still writes the warning.
    private func signedInWithDiskCache(fingerprintKey key: Data? = nil) -> Watched {
        server.handler = { _ in MockResponse(text: "feed").cacheControl("max-age=600") }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        cache = ResponseCache(
            memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory, fingerprintKey: key)
        let authenticator = BearerTokenAuthenticator(accessToken: "t1") { $0(.success("t2")) }
        let (recorder, lines) = (EventRecorder(), LineCollector())
        network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            interceptors: [authenticator],
            monitors: [recorder, NetworkLogger(level: .errors, sink: lines.sink)], cache: cache)
        return Watched(recorder: recorder, lines: lines)
    }

    private func warnings(_ watched: Watched) -> (events: [MonitorEvent], lines: [String]) {
        let events = watched.recorder.events.filter {
            if case .memoryOnly = $0 { return true }
            return false
        }
        return (events, watched.lines.lines.filter { $0.hasPrefix("⚠") })
    }

    func testASignedInReplyADiskCacheCantKeepIsToldOnce() throws {
        let watched = signedInWithDiskCache()
        let finished = watched.recorder.expectFinishes(2, self)

        XCTAssertEqual(body(load("feed")), "feed")
        XCTAssertEqual(body(load("feed/2")), "feed")

        wait(for: [finished], timeout: 10)
        let (events, lines) = warnings(watched)
        XCTAssertEqual(events.map(\.summary), ["memory only credentials"], "once for two replies")
        guard case .memoryOnly(let request, let reason) = events.first else { return }
        XCTAssertEqual(request.url?.path, "/feed", "the first request it happened to")
        XCTAssertEqual(reason, .credentials)
        XCTAssertEqual(lines.count, 1, watched.lines.text)
        let line = try XCTUnwrap(lines.first)
        XCTAssertTrue(line.contains("/feed"), line)
        XCTAssertTrue(line.contains("fingerprintKey"), line)
        XCTAssertTrue(line.contains("account"), line)
        XCTAssertFalse(line.contains("t1"), "no token in the line: \(line)")
        XCTAssertEqual(cache.currentDiskUsage, 0, "nothing on disk, as before")
    }

    /// A layer without monitors sharing the cache doesn't use up the one warning.
    func testALayerWithoutMonitorsLeavesTheWarningToOneWithMonitors() {
        let watched = signedInWithDiskCache()
        let unwatched = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            interceptors: [BearerTokenAuthenticator(accessToken: "t9") { $0(.success("t10")) }], cache: cache)
        let watchedLayer = network
        network = unwatched
        XCTAssertEqual(body(load("quiet")), "feed")
        network = watchedLayer
        let finished = watched.recorder.expectFinishes(1, self)

        XCTAssertEqual(body(load("feed")), "feed")

        wait(for: [finished], timeout: 10)
        XCTAssertEqual(warnings(watched).events.map(\.summary), ["memory only credentials"])
        XCTAssertEqual(warnings(watched).lines.count, 1, watched.lines.text)
    }

    func testADiskCacheWithAFingerprintKeyKeepsSignedInRepliesAndSaysNothing() throws {
        let watched = signedInWithDiskCache(fingerprintKey: Data(repeating: 7, count: 32))
        let finished = watched.recorder.expectFinishes(1, self)

        XCTAssertEqual(body(load("feed")), "feed")

        wait(for: [finished], timeout: 10)
        XCTAssertTrue(warnings(watched).events.isEmpty)
        XCTAssertTrue(warnings(watched).lines.isEmpty, watched.lines.text)
        let flushed = expectation(description: "flushed")
        cache.flush { flushed.fulfill() }
        wait(for: [flushed], timeout: 5)
        XCTAssertGreaterThan(cache.currentDiskUsage, 0)
    }
}
