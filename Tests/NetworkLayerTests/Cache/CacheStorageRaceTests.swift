import Foundation
import XCTest

@testable import NetworkLayer

/// What a removal promises once it returns, whatever lookups run meanwhile, and a disk cache that
/// outlives its directory.
final class CacheStorageRaceTests: XCTestCase {
    private var directory: URL!
    private let url = URL(string: "https://api.example.com/items")!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storage-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func cacheWithAnEntryOnDiskOnly() -> ResponseCache {
        let cache = ResponseCache(memoryCapacity: 1_000_000, diskCapacity: 1_000_000, directory: directory)
        cache.store(
            statusCode: 200, headers: ["Cache-Control": "max-age=600"], body: Data("v1".utf8),
            for: .init(
                url: url,
                headers: [:]), requestTime: Date(), responseTime: Date())
        // As after a relaunch, or once memory evicted it.
        cache.memory.removeAll()
        return cache
    }

    /// A lookup reads the file while a removal deletes it: once the removal has returned, the entry is
    /// gone from memory too (it was brought back there in 9 of 10 rounds).
    func testARemovedEntryDoesNotComeBackThroughALookupThatRacedTheRemoval() {
        let url = url
        let removals: [(String, @Sendable (ResponseCache) -> Void)] = [
            ("removeResponses(for:)", { $0.removeResponses(for: url) }), ("removeAll()", { $0.removeAll() }),
        ]
        for (name, remove) in removals {
            var resurrected = 0
            for _ in 0..<150 {
                let cache = cacheWithAnEntryOnDiskOnly()
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    if index == 0 {
                        _ = cache.entry(for: .init(url: url, headers: [:]))
                    } else {
                        remove(cache)
                    }
                }
                if cache.entry(for: .init(url: url, headers: [:])) != nil { resurrected += 1 }
                cache.removeAll()
            }
            XCTAssertEqual(resurrected, 0, "\(name): a removed entry was served after the removal returned")
        }
    }

    func testADiskCacheWhoseDirectoryWasRemovedMakesItAgain() throws {
        let cache = ResponseCache(memoryCapacity: 1_000_000, diskCapacity: 1_000_000, directory: directory)
        try FileManager.default.removeItem(at: directory)
        cache.store(
            statusCode: 200, headers: ["Cache-Control": "max-age=600"], body: Data("v1".utf8),
            for: .init(
                url: url,
                headers: [:]), requestTime: Date(), responseTime: Date())
        XCTAssertGreaterThan(cache.currentDiskUsage, 0, "nothing was written to disk")
        cache.memory.removeAll()
        XCTAssertNotNil(cache.entry(for: .init(url: url, headers: [:])))
    }
}
