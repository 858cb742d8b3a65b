import Foundation
import NetworkTestSupport
import XCTest

@testable import NetworkLayer

/// Files another program put in an outbox's folder, the folder's permissions, and what a new item counts
/// against the size limit.
extension OutboxStorageTests {
    /// A sparse 512 MB item file (it takes no disk) is set aside without being read. The memory check
    /// sees growth beyond the process's peak so far, so it is sharpest when the test runs alone.
    func testAnItemFileLargerThanAnyItemIsSetAsideUnread() throws {
        let (folder, url) = try makeOutboxItemsFolder()
        let name = "00000000000000000001.item"
        let descriptor = open(url.appendingPathComponent(name).path, O_WRONLY | O_CREAT, 0o600)
        XCTAssertEqual(ftruncate(descriptor, 512 << 20), 0)
        close(descriptor)

        let before = peakMemory()
        let outbox = try Outbox(directory: folder, layer: offlineLayer())
        XCTAssertLessThan(peakMemory() - before, 128 << 20, "the file was read")
        XCTAssertEqual(outbox.items, [])
        XCTAssertEqual(outbox.damagedFiles.map(\.lastPathComponent), [name + ".damaged"])
        XCTAssertThrowsError(try DurableFolder(url: url).read(name + ".damaged", maximumSize: 1 << 20)) {
            XCTAssertEqual($0 as? DurableRecordDamage, .tooLarge)
        }
    }

    /// A copy would be sent at every launch: a delivered item removes only the file named for it.
    func testAnItemFileCopiedUnderAnotherNameIsSetAside() throws {
        let folder = try makeOutboxFolder()
        let outbox = try Outbox(directory: folder, layer: offlineLayer())
        let id = try outbox.enqueue(indexedPost(0))
        outbox.close()
        let original = try XCTUnwrap(itemFiles(in: folder).first)
        let copy = original.deletingLastPathComponent().appendingPathComponent("00000000000000000042.item")
        try FileManager.default.copyItem(at: original, to: copy)

        let reopened = try Outbox(directory: folder, layer: offlineLayer())
        XCTAssertEqual(reopened.items.map(\.id), [id])
        XCTAssertEqual(reopened.damagedFiles.map(\.lastPathComponent), ["00000000000000000042.item.damaged"])
    }

    func testTheSizeLimitCountsANewItemsQueryAndHeaders() throws {
        var options = OutboxOptions()
        options.maximumSize = 1000
        let outbox = try Outbox(directory: makeOutboxFolder(), layer: offlineLayer(), options: options)
        let long = String(repeating: "x", count: 1000)
        let tooLarge = [
            OutboxRequest(.post, "items", query: ["q": long], kind: "item", account: .any),
            OutboxRequest(.post, "items", headers: ["X-Note": long], kind: "item", account: .any),
        ]
        for request in tooLarge {
            XCTAssertThrowsError(try outbox.enqueue(request)) { error in
                guard case .full = error as? OutboxError else { return XCTFail("\(error)") }
            }
        }
        XCTAssertEqual(outbox.items, [])
        XCTAssertNoThrow(try outbox.enqueue(OutboxRequest(.post, "items", kind: "item", account: .any)))
    }

    /// The folder holds request bodies: readable by the user only, an existing one made so too.
    func testTheFolderIsReadableByTheUserOnly() throws {
        let folder = try makeOutboxFolder()
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("old.outbox"), withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o755])
        for name in ["outbox", "old"] {
            try Outbox(directory: folder, name: name, layer: offlineLayer()).close()
            let path = folder.appendingPathComponent("\(name).outbox").path
            let permissions =
                try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            XCTAssertEqual(permissions, 0o700, name)
        }
    }
}

/// The process's peak resident memory, in bytes.
func peakMemory() -> Int {
    var usage = rusage()
    #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        return Int(usage.ru_maxrss) * 1024  // kilobytes on Linux
    #else
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)
    #endif
}
