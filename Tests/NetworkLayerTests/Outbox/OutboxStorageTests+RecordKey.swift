import Foundation
import NetworkTestSupport
import XCTest

@testable import NetworkLayer

/// Items someone else wrote into an outbox's folder, and the key that tells them from the outbox's own.
extension OutboxStorageTests {
    private var recordKey: Data { Data((0..<32).map { UInt8($0) }) }

    /// An item another program wrote, with a valid checksum: a `DELETE /account` for whoever is signed
    /// in. Without a key the outbox sends it with the user's token; under a key it is set aside unsent.
    func testAnItemForgedWithAValidChecksumIsSetAsideUnderAKey() throws {
        let server = try startedServer { _ in MockResponse(status: 200, text: "ok") }
        let authenticator = BearerTokenAuthenticator(accessToken: "users-token") { $0(.success("new")) }
        let network = NetworkLayer(baseURL: server.baseURL, interceptors: [authenticator])
        let (folder, url) = try makeOutboxItemsFolder()
        let forged = OutboxItem(
            id: UUID(), sequence: 1, kind: "x", account: nil, method: "DELETE", urlString: "account",
            headers: [:], body: Data(), query: [:], idempotencyKey: "k", enqueuedAt: Date(), expiresAt: nil,
            attempts: 0, deadLetter: nil)
        let name = "00000000000000000001.item"
        try DurableRecord.encode(try JSONEncoder().encode(forged), contentVersion: 1)
            .write(to: url.appendingPathComponent(name))

        var options = OutboxOptions()
        options.recordKey = recordKey
        let outbox = try Outbox(directory: folder, layer: network, options: options)
        outbox.queue.sync {}
        XCTAssertEqual(outbox.items, [])
        XCTAssertEqual(outbox.damagedFiles.map(\.lastPathComponent), [name + ".damaged"])
        outbox.close()
        XCTAssertEqual(server.requestCount, 0, "the forged item was sent")
    }

    func testTheOutboxsOwnItemsAreReadUnderItsKeyOnly() throws {
        let folder = try makeOutboxFolder()
        var options = OutboxOptions()
        options.recordKey = recordKey
        let outbox = try Outbox(directory: folder, layer: offlineLayer(), options: options)
        let id = try outbox.enqueue(indexedPost(0))
        outbox.close()

        let reopened = try Outbox(directory: folder, layer: offlineLayer(), options: options)
        XCTAssertEqual(reopened.items.map(\.id), [id])
        reopened.close()
        options.recordKey = Data(repeating: 7, count: 32)
        let underAnotherKey = try Outbox(directory: folder, layer: offlineLayer(), options: options)
        XCTAssertEqual(underAnotherKey.items, [])
        XCTAssertEqual(underAnotherKey.damagedFiles.count, 1)
    }

    func testARecordKeyShorterThan16BytesIsRefused() throws {
        var options = OutboxOptions()
        options.recordKey = Data(repeating: 1, count: 15)
        XCTAssertThrowsError(
            try Outbox(directory: makeOutboxFolder(), layer: offlineLayer(), options: options)
        ) {
            guard case .writeFailed(let reason)? = $0 as? OutboxError else { return XCTFail("\($0)") }
            XCTAssertTrue(reason.contains("16"), reason)
        }
    }
}
