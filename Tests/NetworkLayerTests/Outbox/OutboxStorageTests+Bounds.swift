import Foundation
import NetworkTestSupport
import XCTest

@testable import NetworkLayer

/// Names and sizes at the ends of their ranges: none traps, and a dead letter's reply stays readable.
extension OutboxStorageTests {
    /// An empty file named with the largest sequence would have made the next sequence overflow (a trap
    /// at every launch); an item numbered so would sort after every later one. Both are left out.
    func testAFileNamedWithTheLargestSequenceNeitherTrapsNorOrdersTheQueue() throws {
        let (folder, url) = try makeOutboxItemsFolder()
        try Data().write(to: url.appendingPathComponent("18446744073709551615"))
        let last = OutboxItem(
            id: UUID(), sequence: .max, kind: "x", account: nil, method: "POST", urlString: "items",
            headers: [:], body: Data(), query: [:], idempotencyKey: "k", enqueuedAt: Date(), expiresAt: nil,
            attempts: 0, deadLetter: nil)
        try DurableRecord.encode(try JSONEncoder().encode(last), contentVersion: 1)
            .write(to: url.appendingPathComponent("18446744073709551615.item"))

        let outbox = try Outbox(directory: folder, layer: offlineLayer())
        XCTAssertEqual(outbox.items, [])
        XCTAssertEqual(outbox.damagedFiles.map(\.lastPathComponent), ["18446744073709551615.item.damaged"])
        let id = try outbox.enqueue(indexedPost(0))
        XCTAssertEqual(outbox.items.map(\.sequence), [1])
        outbox.close()
        XCTAssertEqual(try Outbox(directory: folder, layer: offlineLayer()).items.map(\.id), [id])
    }

    /// `Int.max` as "no limit": the largest item file the outbox reads is computed without overflow.
    func testAnOutboxWithoutASizeLimitOpensAndReadsItsItems() throws {
        var options = OutboxOptions()
        options.maximumSize = .max
        let folder = try makeOutboxFolder()
        let outbox = try Outbox(directory: folder, layer: offlineLayer(), options: options)
        let id = try outbox.enqueue(indexedPost(0))
        outbox.close()
        let reopened = try Outbox(directory: folder, layer: offlineLayer(), options: options)
        XCTAssertEqual(reopened.items.map(\.id), [id])
        XCTAssertEqual(OutboxDiskStorage.recordLimit(forMaximumSize: .max), Int(clamping: UInt32.max))
        XCTAssertEqual(OutboxDiskStorage.recordLimit(forMaximumSize: 1000), 2000 + 8 * 1024 * 1024)
    }

    /// A server's reply to a rejected item is stored with it: kept to its first 64 KiB, so an item near
    /// the size limit with a large error page is still read at the next launch.
    func testADeadLettersStoredReplyIsCappedAndReadAfterReopening() throws {
        let reply = String(repeating: "e", count: 200 * 1024)
        let server = try startedServer { _ in MockResponse(status: 422, text: reply) }
        let folder = try makeOutboxFolder()
        let network = NetworkLayer(baseURL: server.baseURL)
        let outbox = try Outbox(directory: folder, layer: network, options: quickOutboxOptions())
        let log = OutboxEventLog(outbox)
        let id = try outbox.enqueue(indexedPost(0))
        XCTAssertTrue(log.waitForDeadLetters(1))
        XCTAssertEqual(outbox.deadLetters.first?.deadLetter?.body, Data(reply.utf8.prefix(64 * 1024)))
        outbox.close()

        let reopened = try Outbox(directory: folder, layer: offlineLayer())
        XCTAssertEqual(reopened.deadLetters.map(\.id), [id])
        XCTAssertEqual(reopened.deadLetters.first?.deadLetter?.body.count, 64 * 1024)
    }
}
