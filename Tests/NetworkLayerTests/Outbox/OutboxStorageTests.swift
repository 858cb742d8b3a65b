import Foundation
import NetworkTestSupport
import XCTest

@testable import NetworkLayer

/// What an outbox keeps on disk: every item whole across reopening, damage confined to one item, a full
/// disk refused cleanly, one owner per directory and name (credentials: `OutboxCredentialTests`).
final class OutboxStorageTests: XCTestCase {
    let clock = TestClock()

    /// A layer whose attempts fail at once (nothing listens) and whose waits never pass: items stay.
    func offlineLayer() throws -> NetworkLayer {
        let server = MockServer()
        try server.start()
        let url = server.baseURL
        server.stop()
        return NetworkLayer(clock: clock, baseURL: url, callbackQueue: DispatchQueue(label: "test.offline"))
    }

    func itemFiles(in folder: URL, name: String = "outbox") throws -> [URL] {
        let url = folder.appendingPathComponent("\(name).outbox")
        return try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".item") }
            .sorted().map { url.appendingPathComponent($0) }
    }

    func testItemsSurviveReopeningInOrderWithTheirKeys() throws {
        let folder = try makeOutboxFolder()
        let outbox = try Outbox(directory: folder, layer: offlineLayer())
        let ids = try (0..<3).map { try outbox.enqueue(indexedPost($0)) }
        let keys = outbox.items.map(\.idempotencyKey)
        outbox.close()

        let reopened = try Outbox(directory: folder, layer: offlineLayer())
        XCTAssertEqual(reopened.items.map(\.id), ids)
        XCTAssertEqual(reopened.items.map(\.idempotencyKey), keys)
        XCTAssertEqual(reopened.items.compactMap { index(of: $0.body) }, [0, 1, 2])
        XCTAssertEqual(Set(keys).count, 3, "one key per item")
        XCTAssertEqual(reopened.damagedFiles, [])
    }

    func testARecordCutAtEveryByteLosesOnlyThatItem() throws {
        let source = try makeOutboxFolder()
        let outbox = try Outbox(directory: source, layer: offlineLayer())
        for index in 0..<3 { try outbox.enqueue(indexedPost(index)) }
        outbox.close()
        let files = try itemFiles(in: source)
        let whole = try Data(contentsOf: files[1])

        for length in 0..<whole.count {
            let folder = source.appendingPathComponent("cut-\(length)")
            let copy = folder.appendingPathComponent("outbox.outbox")
            try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
            for file in files {
                try FileManager.default.copyItem(
                    at: file, to: copy.appendingPathComponent(file.lastPathComponent))
            }
            try whole.prefix(length).write(to: copy.appendingPathComponent(files[1].lastPathComponent))

            let contents = try OutboxDiskStorage(directory: folder, name: "outbox").load()
            XCTAssertEqual(contents.items.compactMap { index(of: $0.body) }, [0, 2], "cut at \(length)")
            XCTAssertEqual(contents.damaged.count, 1, "cut at \(length)")
            XCTAssertGreaterThan(contents.nextSequence, 3, "a damaged item's sequence is never reused")
        }
    }

    func testRandomGarbageIsSetAsideAndReported() throws {
        let folder = try makeOutboxFolder()
        let outbox = try Outbox(directory: folder, layer: offlineLayer())
        for index in 0..<2 { try outbox.enqueue(indexedPost(index)) }
        outbox.close()
        let url = folder.appendingPathComponent("outbox.outbox")
        var generator = SystemRandomNumberGenerator()
        for number in 0..<20 {
            let bytes = (0..<Int.random(in: 0..<600, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            try Data(bytes).write(to: url.appendingPathComponent("9\(number).item"))
        }
        try Data("not ours".utf8).write(to: url.appendingPathComponent("notes.txt"))

        let reopened = try Outbox(directory: folder, layer: offlineLayer())
        XCTAssertEqual(reopened.items.compactMap { index(of: $0.body) }, [0, 1])
        XCTAssertEqual(reopened.damagedFiles.count, 20)
        XCTAssertTrue(reopened.damagedFiles.allSatisfy { $0.lastPathComponent.hasSuffix(".damaged") })
        XCTAssertTrue(FileManager.default.fileExists(atPath: url.appendingPathComponent("notes.txt").path))
    }

    func testAnItemOfANewerVersionIsLeftForTheAppThatWroteIt() throws {
        let folder = try makeOutboxFolder()
        let outbox = try Outbox(directory: folder, layer: offlineLayer())
        try outbox.enqueue(indexedPost(0))
        outbox.close()
        let storage = try OutboxDiskStorage(directory: folder, name: "outbox")
        try storage.folder.write(
            Data("{}".utf8), contentVersion: 2, as: "00000000000000000009.item", flushToDevice: false)
        let contents = storage.load()
        XCTAssertEqual(contents.items.count, 1)
        XCTAssertEqual(
            contents.damaged.map(\.lastPathComponent), ["00000000000000000009.item"], "reported, untouched")
        XCTAssertEqual(contents.nextSequence, 10, "its sequence is not reused")
    }

    func testAFullDiskFailsTheEnqueueAndStoresNothing() throws {
        let folder = try makeOutboxFolder()
        let outbox = try Outbox(directory: folder, layer: offlineLayer())
        try outbox.enqueue(indexedPost(0))
        let storage = try XCTUnwrap(outbox.storage as? OutboxDiskStorage)
        storage.folder.writeBudget.withLock { $0 = 30 }

        XCTAssertThrowsError(try outbox.enqueue(indexedPost(1))) { error in
            guard case .writeFailed(let reason) = error as? OutboxError else { return XCTFail("\(error)") }
            XCTAssertTrue(reason.contains(String(cString: strerror(ENOSPC))), reason)
        }
        XCTAssertEqual(outbox.items.count, 1)
        let names = try FileManager.default.contentsOfDirectory(atPath: storage.folder.url.path).sorted()
        XCTAssertEqual(names.filter { $0 != "lock" }.count, 1, "no half-written file: \(names)")

        storage.folder.writeBudget.withLock { $0 = nil }
        try outbox.enqueue(indexedPost(2))
        XCTAssertEqual(outbox.items.compactMap { index(of: $0.body) }, [0, 2])
    }

    func testASecondOutboxOnTheSameDirectoryAndNameIsRefused() throws {
        let folder = try makeOutboxFolder()
        var first: Outbox? = try Outbox(directory: folder, layer: offlineLayer())
        XCTAssertThrowsError(try Outbox(directory: folder, layer: offlineLayer())) { error in
            guard case .inUse = error as? OutboxError else { return XCTFail("\(error)") }
        }
        XCTAssertNoThrow(try Outbox(directory: folder, name: "other", layer: offlineLayer()), "another queue")
        first?.close()
        first = nil
        XCTAssertNoThrow(try Outbox(directory: folder, layer: offlineLayer()), "released with its outbox")
    }

    func testLimitsAndMethodsAreEnforced() throws {
        var options = OutboxOptions()
        options.maximumItemCount = 2
        let outbox = try Outbox(directory: makeOutboxFolder(), layer: offlineLayer(), options: options)
        try outbox.enqueue(indexedPost(0))
        try outbox.enqueue(indexedPost(1))
        XCTAssertThrowsError(try outbox.enqueue(indexedPost(2))) { error in
            guard case .full = error as? OutboxError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try outbox.enqueue(OutboxRequest(.get, "items", kind: "read"))) { error in
            guard case .unsupportedMethod(.get) = error as? OutboxError else { return XCTFail("\(error)") }
        }
    }

    func testAnEndpointIsStoredWithItsMethodPathQueryHeadersAndEncodedBody() throws {
        struct RenameItem: Endpoint {
            var path: String { "items/7" }
            var method: HTTPMethod { .patch }
            var query: [String: String] { ["notify": "no"] }
            var headers: [String: String] { ["X-Client": "outbox-test"] }
            var body: RequestBody { .json(["name": "Seven"]) }
        }
        let outbox = try Outbox(directory: makeOutboxFolder(), layer: offlineLayer())
        let id = try outbox.enqueue(OutboxRequest(RenameItem(), kind: "item.rename", account: "alice"))
        let item = try XCTUnwrap(outbox.items.first)
        XCTAssertEqual(item.id, id)
        XCTAssertEqual(item.method, "PATCH")
        XCTAssertEqual(item.urlString, "items/7")
        XCTAssertEqual(item.query, ["notify": "no"])
        XCTAssertEqual(item.headers, ["X-Client": "outbox-test", "Content-Type": "application/json"])
        XCTAssertEqual(try JSONDecoder().decode([String: String].self, from: item.body), ["name": "Seven"])
        XCTAssertEqual(item.kind, "item.rename")
        XCTAssertEqual(item.account, "alice")
        XCTAssertEqual(item.enqueuedAt, clock.date, "dated on the layer's clock")
        XCTAssertEqual(item.idempotencyKey.count, 36)
    }

    func testJSONBodiesAreEncodedWithTheLayersEncoderUnlessTheOptionsGiveOne() throws {
        struct Draft: Encodable { let messageText: String }
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let server = MockServer()
        try server.start()
        let url = server.baseURL
        server.stop()
        let layer = NetworkLayer(
            clock: clock, baseURL: url, encoder: encoder, callbackQueue: DispatchQueue(label: "test"))
        let folder = try makeOutboxFolder()
        let outbox = try Outbox(directory: folder, layer: layer)
        try outbox.enqueue(
            OutboxRequest(
                .post, "messages", body: .json(Draft(messageText: "hi")), kind: "message", account: .any))
        XCTAssertEqual(
            outbox.items.first.map { String(decoding: $0.body, as: UTF8.self) }, "{\"message_text\":\"hi\"}")

        var options = OutboxOptions()
        options.encoder = JSONEncoder()
        let own = try Outbox(directory: folder, name: "own", layer: layer, options: options)
        try own.enqueue(
            OutboxRequest(
                .post, "messages", body: .json(Draft(messageText: "hi")), kind: "message", account: .any))
        XCTAssertEqual(
            own.items.first.map { String(decoding: $0.body, as: UTF8.self) }, "{\"messageText\":\"hi\"}")
    }
}
