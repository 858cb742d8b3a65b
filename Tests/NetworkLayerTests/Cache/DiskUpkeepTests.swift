import Foundation
import XCTest

@testable import NetworkLayer

/// The disk cache's upkeep: waiting for pending writes, a crashed writer's temporary files, and the
/// least-recently-used order counting every read.
final class DiskUpkeepTests: XCTestCase {
    private var directory: URL!
    private let now = Date()

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cache-upkeep-\(UUID())")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    private func url(_ path: String) -> URL { URL(string: "https://api.example.com/\(path)")! }

    private func entry(_ path: String, size: Int = 10) -> CachedResponse {
        CachedResponse(
            url: url(path), statusCode: 200, headers: ["Cache-Control": "max-age=600"],
            body: Data(repeating: 1, count: size), requestTime: now, responseTime: now, varying: [:],
            partition: .shared)
    }

    private func file(_ path: String) -> URL {
        directory.appendingPathComponent(entry(path).key.fileName + ".entry")
    }

    func testFlushWaitsForPendingWrites() {
        let cache = ResponseCache(memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory)
        // Holds the disk's queue, as a slow disk would.
        cache.disk?.queue.suspend()
        cache.store(entry("a"), inBackground: true)
        let flushed = expectation(description: "flushed")
        let done = Locked(false)
        cache.flush {
            done.withLock { $0 = true }
            flushed.fulfill()
        }
        XCTAssertFalse(done.withLock { $0 }, "flush returned before the write")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("a").path))
        cache.disk?.queue.resume()
        wait(for: [flushed], timeout: 5)
        XCTAssertTrue(FileManager.default.fileExists(atPath: file("a").path), "not on disk after flush")
    }

    func testFlushAsync() async {
        let cache = ResponseCache(memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory)
        cache.store(entry("a"), inBackground: true)
        await cache.flush()
        XCTAssertTrue(FileManager.default.fileExists(atPath: file("a").path))
        await ResponseCache().flush()
    }

    /// A crashed writer's temporary file goes when a cache opens the directory; a live process's and
    /// this process's stay, and so do files the library didn't name.
    func testOpeningRemovesTemporaryFilesOfWritersThatAreGone() throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let crashed = directory.appendingPathComponent("a.entry.2147483646-\(UUID()).tmp")
        let live = directory.appendingPathComponent("a.entry.\(getpid())-\(UUID()).tmp")
        let users = ["notes.tmp", "2023-10-report.tmp"].map(directory.appendingPathComponent)
        for file in [crashed, live] + users { try Data("partial".utf8).write(to: file) }
        let cache = ResponseCache(memoryCapacity: 100_000, diskCapacity: 100_000, directory: directory)
        let flushed = expectation(description: "flushed")
        cache.flush { flushed.fulfill() }
        wait(for: [flushed], timeout: 5)
        XCTAssertFalse(FileManager.default.fileExists(atPath: crashed.path), "a dead writer's file stayed")
        XCTAssertTrue(FileManager.default.fileExists(atPath: live.path), "a live writer's file went")
        for file in users { XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), "\(file)") }
    }

    /// A user's files ending in `.tmp` in the cache's directory are no entries: eviction and
    /// `removeAll()` leave them, and an existing directory keeps its mode.
    func testTheCacheLeavesFilesItDidntWrite() throws {
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        let users = ["notes.tmp", "2023-10-report.tmp"].map(directory.appendingPathComponent)
        for file in users { try Data(repeating: 1, count: 5000).write(to: file) }
        let cache = ResponseCache(memoryCapacity: 100_000, diskCapacity: 1500, directory: directory)
        for path in ["a", "b", "c"] { cache.store(entry(path, size: 600), inBackground: true) }
        let flushed = expectation(description: "flushed")
        cache.flush { flushed.fulfill() }
        wait(for: [flushed], timeout: 5)
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("a").path), "evicted")
        cache.removeAll()
        let cleared = expectation(description: "cleared")
        cache.flush { cleared.fulfill() }
        wait(for: [cleared], timeout: 5)
        for file in users { XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), "\(file)") }
        let mode = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions]
        XCTAssertEqual(mode as? Int, 0o755, "the app's directory")
    }

    /// A read served from memory counts for the disk's eviction: the entry read last stays.
    func testAReadFromMemoryRefreshesTheDiskEntrysRecency() throws {
        let size = 1000
        let cost = try XCTUnwrap(CacheEntryCoding.encode(entry("a", size: size))).count
        let cache = ResponseCache(
            memoryCapacity: 100_000, diskCapacity: cost * 2 + cost / 2, directory: directory)
        cache.store(entry("a", size: size))
        cache.store(entry("b", size: size))
        // a older than b on disk, however fine the clock.
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-100)], ofItemAtPath: file("a").path)
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(-50)], ofItemAtPath: file("b").path)
        XCTAssertNotNil(cache.entry(for: .init(url: url("a"), headers: [:])), "served from memory")
        cache.store(entry("c", size: size))
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: file("a").path), "the entry read last was evicted")
        XCTAssertFalse(FileManager.default.fileExists(atPath: file("b").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: file("c").path))
    }
}
