import Foundation
import XCTest

@testable import NetworkLayer

/// The cache's stores: memory LRU by bytes, disk entries that are whole or a miss, capacity, sharing.
final class ResponseCacheStoreTests: XCTestCase {
    private var directory: URL!
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "cache-tests-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        try? FileManager.default.removeItem(at: directory)
    }

    private func url(_ path: String) -> URL { URL(string: "https://api.example.com/\(path)")! }

    private func store(
        _ cache: ResponseCache, _ path: String, body: String, request: HeaderFields = [:],
        headers: [String: String] = ["Cache-Control": "max-age=60"]
    ) {
        cache.store(
            statusCode: 200, headers: headers, body: Data(body.utf8),
            for: .init(url: url(path), headers: request),
            requestTime: now, responseTime: now)
    }

    private func body(_ cache: ResponseCache, _ path: String, request: HeaderFields = [:]) -> String? {
        cache.entry(for: .init(url: url(path), headers: request)).map {
            String(decoding: $0.body, as: UTF8.self)
        }
    }

    private func entryFiles() throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "entry" }
    }

    // MARK: - Memory

    func testMemoryRoundTripAndUsage() {
        let cache = ResponseCache(memoryCapacity: 100_000)
        XCTAssertEqual(cache.currentMemoryUsage, 0)
        store(cache, "a", body: "alpha")
        XCTAssertEqual(body(cache, "a"), "alpha")
        XCTAssertGreaterThan(cache.currentMemoryUsage, 5)
        XCTAssertEqual(cache.currentDiskUsage, 0)
        cache.removeAll()
        XCTAssertNil(body(cache, "a"))
        XCTAssertEqual(cache.currentMemoryUsage, 0)
    }

    func testMemoryEvictsLeastRecentlyUsedByBytes() {
        let cache = ResponseCache(memoryCapacity: 3 * (1000 + 300))
        store(cache, "a", body: String(repeating: "a", count: 1000))
        store(cache, "b", body: String(repeating: "b", count: 1000))
        XCTAssertNotNil(body(cache, "a"))  // a is now more recent than b
        store(cache, "c", body: String(repeating: "c", count: 1000))
        store(cache, "d", body: String(repeating: "d", count: 1000))
        XCTAssertNil(body(cache, "b"))
        XCTAssertNotNil(body(cache, "a"))
        XCTAssertNotNil(body(cache, "d"))
        XCTAssertLessThanOrEqual(cache.currentMemoryUsage, 3 * 1300)
    }

    func testEntryLargerThanCapacityIsNotStored() {
        let cache = ResponseCache(memoryCapacity: 100)
        store(cache, "a", body: String(repeating: "a", count: 1000))
        XCTAssertNil(body(cache, "a"))
        XCTAssertEqual(cache.currentMemoryUsage, 0)
    }

    func testUnstorableReplyRemovesTheOldOne() {
        let cache = ResponseCache()
        store(cache, "a", body: "old")
        store(cache, "a", body: "new", headers: ["Cache-Control": "no-store"])
        XCTAssertNil(body(cache, "a"))
    }

    func testCredentialsKeepEntriesApart() {
        let cache = ResponseCache()
        store(cache, "me", body: "alice", request: ["Authorization": "Bearer alice"])
        XCTAssertEqual(body(cache, "me", request: ["Authorization": "Bearer alice"]), "alice")
        XCTAssertNil(body(cache, "me", request: ["Authorization": "Bearer bob"]))
        XCTAssertNil(body(cache, "me"))
        XCTAssertNil(body(cache, "me", request: ["Cookie": "session=alice"]))
        store(cache, "me", body: "bob", request: ["Authorization": "Bearer bob"])
        XCTAssertEqual(body(cache, "me", request: ["Authorization": "Bearer alice"]), "alice")
        XCTAssertEqual(body(cache, "me", request: ["Authorization": "Bearer bob"]), "bob")
    }

    func testRemoveResponsesForAURLRemovesEveryCredential() {
        let cache = ResponseCache(memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory)
        store(cache, "me", body: "alice", request: ["Authorization": "Bearer alice"])
        store(cache, "me", body: "anyone")
        store(cache, "other", body: "kept")
        cache.removeResponses(for: url("me#fragment"))
        XCTAssertNil(body(cache, "me", request: ["Authorization": "Bearer alice"]))
        XCTAssertNil(body(cache, "me"))
        XCTAssertEqual(body(cache, "other"), "kept")
        XCTAssertEqual(try entryFiles().count, 1)
    }

    // MARK: - Disk

    /// An entry stored for credentials is on disk with the app's fingerprint key, which a new cache
    /// needs to find it.
    func testDiskEntrySurvivesANewCache() {
        let key = Data((0..<32).map { UInt8($0) })
        let first = ResponseCache(
            memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory, fingerprintKey: key)
        store(first, "a", body: "alpha", request: ["Authorization": "Bearer t"])
        XCTAssertGreaterThan(first.currentDiskUsage, 0)
        let second = ResponseCache(
            memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory, fingerprintKey: key)
        XCTAssertEqual(body(second, "a", request: ["Authorization": "Bearer t"]), "alpha")
        XCTAssertNil(body(second, "a"))
        let stored = try? Data(contentsOf: entryFiles()[0])
        XCTAssertFalse(
            String(decoding: stored ?? Data(), as: UTF8.self).contains("Bearer"), "no token on disk")
    }

    func testEntryTruncatedAtEveryByteIsAMissAndRemoved() throws {
        let writer = ResponseCache(memoryCapacity: 0, diskCapacity: 100_000, directory: directory)
        store(writer, "a", body: "a small body")
        let file = try XCTUnwrap(entryFiles().first)
        let whole = try Data(contentsOf: file)
        for length in 0..<whole.count {
            try whole.prefix(length).write(to: file)
            let reader = ResponseCache(memoryCapacity: 0, diskCapacity: 100_000, directory: directory)
            XCTAssertNil(body(reader, "a"), "truncated to \(length) bytes")
            XCTAssertFalse(FileManager.default.fileExists(atPath: file.path), "removed at \(length) bytes")
        }
        try whole.write(to: file)
        XCTAssertEqual(body(writer, "a"), "a small body")
    }

    func testEveryFlippedByteIsAMissOrTheRightBody() throws {
        let writer = ResponseCache(memoryCapacity: 0, diskCapacity: 100_000, directory: directory)
        store(writer, "a", body: "a small body")
        let file = try XCTUnwrap(entryFiles().first)
        let whole = try Data(contentsOf: file)
        for index in 0..<whole.count {
            var damaged = whole
            damaged[index] ^= 0x5A
            try damaged.write(to: file)
            let read = body(writer, "a")
            XCTAssertTrue(read == nil || read == "a small body", "byte \(index)")
        }
    }

    func testGarbageEntriesAreMisses() throws {
        let writer = ResponseCache(memoryCapacity: 0, diskCapacity: 100_000, directory: directory)
        store(writer, "a", body: "alpha")
        let file = try XCTUnwrap(entryFiles().first)
        var generator = SystemRandomNumberGenerator()
        for length in [1, 4, 24, 25, 100, 5000] {
            let garbage = Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) })
            try garbage.write(to: file)
            XCTAssertNil(body(writer, "a"))
        }
        // A valid entry for another key under this key's name is a miss too.
        store(writer, "b", body: "beta")
        let other = try XCTUnwrap(entryFiles().first)
        try FileManager.default.copyItem(at: other, to: file)
        XCTAssertNil(body(writer, "a"))
        XCTAssertEqual(body(writer, "b"), "beta")
    }

    func testReadOnlyDirectorySkipsStoring() throws {
        try XCTSkipIf(
            getuid() == 0, "root writes to a read-only directory; see testUnwritableDirectorySkipsStoring")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
        let cache = ResponseCache(memoryCapacity: 0, diskCapacity: 100_000, directory: directory)
        store(cache, "a", body: "alpha")
        XCTAssertEqual(cache.currentDiskUsage, 0)
        XCTAssertNil(body(cache, "a"))
    }

    func testUnwritableDirectorySkipsStoring() throws {
        // A regular file where the directory should be: every write fails, even as root.
        try Data("not a directory".utf8).write(to: directory)
        let cache = ResponseCache(memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory)
        store(cache, "a", body: "alpha")
        XCTAssertEqual(cache.currentDiskUsage, 0)
        XCTAssertEqual(body(cache, "a"), "alpha", "still served from memory")
        let diskOnly = ResponseCache(memoryCapacity: 0, diskCapacity: 100_000, directory: directory)
        store(diskOnly, "a", body: "alpha")
        XCTAssertNil(body(diskOnly, "a"))
    }

    func testDiskCapacityHeldLeastRecentlyUsedFirst() throws {
        let cache = ResponseCache(memoryCapacity: 0, diskCapacity: 5_000, directory: directory)
        for index in 0..<20 {
            store(cache, "\(index)", body: String(repeating: "x", count: 1000))
            XCTAssertLessThanOrEqual(cache.currentDiskUsage, 5_000)
        }
        XCTAssertNotNil(body(cache, "19"))
        XCTAssertNil(body(cache, "0"))
    }

    func testAbandonedTemporaryFilesAreCleanedAndNotCounted() throws {
        let cache = ResponseCache(memoryCapacity: 0, diskCapacity: 100_000, directory: directory)
        store(cache, "a", body: "alpha")
        // Named as the library names them, by a process that is gone.
        let leftover = directory.appendingPathComponent("a.entry.2147483646-\(UUID()).tmp")
        try Data(repeating: 1, count: 500).write(to: leftover)
        let usage = cache.currentDiskUsage
        store(cache, "b", body: "beta")
        XCTAssertFalse(FileManager.default.fileExists(atPath: leftover.path))
        XCTAssertGreaterThan(cache.currentDiskUsage, usage)
    }

    func testConcurrentReadersAndWritersOfTheSameKeys() {
        let caches = [
            ResponseCache(memoryCapacity: 20_000, diskCapacity: 30_000, directory: directory),
            ResponseCache(memoryCapacity: 20_000, diskCapacity: 30_000, directory: directory),
        ]
        let now = now
        DispatchQueue.concurrentPerform(iterations: 64) { index in
            let cache = caches[index % 2]
            for round in 0..<20 {
                let key = "k\((index + round) % 8)"
                let url = URL(string: "https://api.example.com/\(key)")!
                if (index + round) % 3 == 0 {
                    cache.store(
                        statusCode: 200, headers: ["Cache-Control": "max-age=60"],
                        body: Data("\(key)-\(String(repeating: "v", count: 500))".utf8),
                        for: .init(
                            url: url,
                            headers: [:]),
                        requestTime: now, responseTime: now)
                } else if let read = cache.entry(for: .init(url: url, headers: [:])) {
                    XCTAssertTrue(
                        String(decoding: read.body, as: UTF8.self).hasPrefix("\(key)-"), "wrong body")
                }
            }
        }
        XCTAssertLessThanOrEqual(caches[0].currentDiskUsage, 30_000)
        XCTAssertLessThanOrEqual(caches[0].currentMemoryUsage, 20_000)
    }
}
