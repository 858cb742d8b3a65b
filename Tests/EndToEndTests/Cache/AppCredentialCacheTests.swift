import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A header the app declares a credential (`RedirectPolicy(credentialHeaders:)`) partitions the cache as
/// `Authorization` does (issue 44): a reply to one user's `X-Session` never reaches another user, in
/// memory or on disk, and a disk cache that can't keep it says why.
extension CacheEndToEndTests {
    /// A layer on `cache` whose interceptor adds the signed-in user's `X-Session`, declared a credential;
    /// no account is named anywhere.
    private func sessionLayer(user: Locked<String>, monitors: [any NetworkMonitor] = []) -> NetworkLayer {
        NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global(), timeout: 5,
            redirectPolicy: RedirectPolicy(credentialHeaders: ["X-Session"]),
            interceptors: [SessionHeader(user: user)], monitors: monitors, cache: cache)
    }

    /// A reply for whoever's `X-Session` asked, fresh for ten minutes and not marked `private`.
    private func serveProfiles() {
        server.handler = { request in
            MockResponse(text: "profile for \(request.header("X-Session") ?? "nobody")")
                .cacheControl("max-age=600")
        }
    }

    private func diskCache(fingerprintKey: Data?) -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        cache = ResponseCache(
            memoryCapacity: 1_000_000, diskCapacity: 1_000_000, directory: directory,
            fingerprintKey: fingerprintKey)
        return directory
    }

    private func flushCache() {
        let flushed = expectation(description: "flushed")
        cache.flush { flushed.fulfill() }
        wait(for: [flushed], timeout: 5)
    }

    func testAnAppDeclaredCredentialHeaderKeepsUsersApartInMemory() {
        serveProfiles()
        let user = Locked("session-a")
        network = sessionLayer(user: user)
        XCTAssertEqual(body(load("me")), "profile for session-a")
        XCTAssertEqual(status(load("me")), .hit, "the same user is served from the cache")

        user.withLock { $0 = "session-b" }
        let second = load("me")
        XCTAssertEqual(body(second), "profile for session-b", "user B was served user A's reply")
        XCTAssertEqual(status(second), .network)
    }

    func testAnAppDeclaredCredentialHeaderKeepsUsersApartOnDisk() {
        serveProfiles()
        // With a key the cache may write credential partitions to disk: they must stay apart there too.
        let directory = diskCache(fingerprintKey: Data(repeating: 7, count: 32))
        let user = Locked("session-a")
        network = sessionLayer(user: user)
        XCTAssertEqual(body(load("me")), "profile for session-a")
        flushCache()

        // A relaunch: a new cache on the same directory, and user B signed in.
        cache = ResponseCache(
            memoryCapacity: 1_000_000, diskCapacity: 1_000_000, directory: directory,
            fingerprintKey: Data(repeating: 7, count: 32))
        user.withLock { $0 = "session-b" }
        network = sessionLayer(user: user)
        let second = load("me")
        XCTAssertEqual(body(second), "profile for session-b", "user B was served user A's reply from disk")
        XCTAssertEqual(status(second), .network)

        user.withLock { $0 = "session-a" }
        XCTAssertEqual(status(load("me")), .hit, "user A's reply is still on disk for user A")
    }

    func testADiskCacheSaysItKeepsAnAppDeclaredCredentialsReplyInMemoryOnly() {
        serveProfiles()
        _ = diskCache(fingerprintKey: nil)
        let recorder = EventRecorder()
        network = sessionLayer(user: Locked("session-a"), monitors: [recorder])
        let finished = recorder.expectFinishes(1, self)

        XCTAssertEqual(body(load("me")), "profile for session-a")

        wait(for: [finished], timeout: 10)
        let warnings = recorder.events.filter {
            if case .memoryOnly = $0 { return true }
            return false
        }
        XCTAssertEqual(warnings.map(\.summary), ["memory only credentials"])
        flushCache()
        XCTAssertEqual(cache.currentDiskUsage, 0, "a reply for X-Session went to disk")
    }
}

/// Adds the signed-in user's session header, as an app's interceptor does.
private struct SessionHeader: RequestInterceptor {
    let user: Locked<String>

    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        var request = request
        request.setValue(user.withLock { $0 }, forHTTPHeaderField: "X-Session")
        completion(.success(request))
    }
}
