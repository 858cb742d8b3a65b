import Foundation
import XCTest

@testable import NetworkLayer

/// Files someone else put in a durable folder: links, FIFOs, huge or numerous files, forged checksums,
/// their own temporary files; and sizes with no limit.
extension DurableRecordTests {
    /// A sparse file of `size` bytes at `file`: it takes no disk, but reading it takes its size in memory.
    private func makeSparseFile(_ file: URL, size: Int) {
        let descriptor = open(file.path, O_WRONLY | O_CREAT, 0o600)
        XCTAssertEqual(ftruncate(descriptor, off_t(size)), 0)
        close(descriptor)
    }

    /// The size check is made on what is read: a link under a record's name is never followed, so the
    /// 384 MiB file it names costs nothing and stays as it was. The memory check sees growth beyond the
    /// process's peak so far, so it is sharpest when the test runs alone.
    func testASymlinkedRecordIsSetAsideWithoutReadingWhatItNames() throws {
        let url = try makeOutboxFolder()
        let target = url.appendingPathComponent("elsewhere.bin")
        makeSparseFile(target, size: 384 << 20)
        let folder = DurableFolder(url: url.appendingPathComponent("records"))
        let name = "00000000000000000001.item"
        try FileManager.default.createSymbolicLink(
            atPath: folder.url.appendingPathComponent(name).path, withDestinationPath: target.path)

        let before = peakMemory()
        XCTAssertThrowsError(try folder.read(name, maximumSize: 1 << 20)) {
            XCTAssertEqual($0 as? DurableRecordDamage, .notAFile)
        }
        let loaded = folder.load(
            [String].self, named: ".item", version: 1, maximumSize: 1 << 20, fileName: { _ in name })
        XCTAssertLessThan(peakMemory() - before, 64 << 20, "the link was followed")
        XCTAssertEqual(loaded.damaged.map(\.lastPathComponent), [name + ".damaged"])
        let kept = try FileManager.default.attributesOfItem(atPath: target.path)
        XCTAssertEqual((kept[.size] as? NSNumber)?.intValue, 384 << 20, "the link's target is untouched")
    }

    /// A FIFO under a record's name would block a read until someone writes it: set aside at once.
    func testAFIFOUnderARecordsNameIsSetAsideWithoutWaiting() throws {
        let folder = DurableFolder(url: try makeOutboxFolder())
        let fifo = folder.url.appendingPathComponent("00000000000000000001.item").path
        XCTAssertEqual(mkfifo(fifo, 0o600), 0)
        let refused = expectation(description: "refused")
        let outcome = Locked<Result<Bool, DurableRecordDamage>?>(nil)
        DispatchQueue.global().async {
            let read = Result { () throws(DurableRecordDamage) in
                try folder.read("00000000000000000001.item", maximumSize: 100) != nil
            }
            outcome.withLock { $0 = read }
            refused.fulfill()
        }
        wait(for: [refused], timeout: 5)
        XCTAssertEqual(outcome.withLock { $0 }, .failure(.notAFile))
        // Let a reader that blocked anyway go.
        let writer = open(fifo, O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
    }

    /// A limit of `Int.max` means none: the size arithmetic saturates rather than trapping.
    func testAnUnlimitedSizeReadsTheRecord() throws {
        let folder = DurableFolder(url: try makeOutboxFolder())
        try folder.write(Data("any size".utf8), contentVersion: 1, as: "a.item", flushToDevice: false)
        XCTAssertEqual(try folder.read("a.item", maximumSize: .max)?.payload, Data("any size".utf8))
    }

    /// A valid 16 MiB record (sparse: its payload is zeros, its checksum computed once) is checked
    /// without copying header and payload into one buffer: the read costs the file's size, not twice.
    func testARecordIsCheckedWithoutASecondCopy() throws {
        let folder = DurableFolder(url: try makeOutboxFolder())
        let file = folder.url.appendingPathComponent("a.item")
        let header: [UInt8] = Array("NLDR".utf8) + [0, 1, 0, 1, 1, 0, 0, 0]
        // SHA-256 of the header and 16 MiB of zeros.
        let digest = "998a16f024c78cc893d78bc517c6136408ecc307d7eeb08a23e0847a81e6ce9e"
        let checksum = stride(from: 0, to: digest.count, by: 2).map { offset -> UInt8 in
            let start = digest.index(digest.startIndex, offsetBy: offset)
            return UInt8(digest[start..<digest.index(start, offsetBy: 2)], radix: 16)!
        }
        try Data(header + checksum).write(to: file)
        makeSparseFile(file, size: DurableRecord.overhead + (16 << 20))

        let before = peakMemory()
        let record = try XCTUnwrap(try folder.read("a.item", maximumSize: 16 << 20))
        XCTAssertEqual(record.payload.count, 16 << 20)
        XCTAssertLessThan(peakMemory() - before, 24 << 20, "the record was copied to be checked")
    }

    /// Each file within the limit, but more of them than the owner ever writes: once the bytes read
    /// reach the total, the rest are set aside unread.
    func testFilesBeyondTheTotalAreSetAsideUnread() throws {
        let folder = DurableFolder(url: try makeOutboxFolder())
        let names = (1...5).map { "\($0).item" }
        for name in names {
            let payload = try JSONEncoder().encode([name, String(repeating: "x", count: 900)])
            try folder.write(payload, contentVersion: 1, as: name, flushToDevice: false)
        }
        let fileSize = try XCTUnwrap(
            FileManager.default.attributesOfItem(atPath: folder.url.appendingPathComponent(names[0]).path)[
                .size] as? NSNumber
        ).intValue
        let loaded = folder.load(
            [String].self, named: ".item", version: 1, maximumSize: 1000, maximumTotal: 2 * fileSize,
            fileName: { $0[0] })
        XCTAssertEqual(loaded.records.map { $0[0] }, Array(names.prefix(2)))
        XCTAssertEqual(loaded.damaged.map(\.lastPathComponent), names.suffix(3).map { $0 + ".damaged" })
        XCTAssertNotNil(try folder.read(names[2] + ".damaged", maximumSize: 1000), "kept intact")
    }

    /// A checksum forged to differ from the keyed one in its last byte only is refused. Every byte is
    /// compared whatever the first ones hold (`SHA256.constantTimeEquals`), so timing tells a forger
    /// nothing; that is by construction, not measured here.
    func testAKeyedChecksumDifferingInItsLastByteIsRefused() throws {
        let key = [UInt8](repeating: 7, count: 32)
        var record = DurableRecord.encode(Data("payload".utf8), contentVersion: 1, key: key)
        XCTAssertEqual(try DurableRecord.decode(record, key: key).payload, Data("payload".utf8))
        record[DurableRecord.overhead - 1] ^= 1
        XCTAssertThrowsError(try DurableRecord.decode(record, key: key)) {
            XCTAssertEqual($0 as? DurableRecordDamage, .checksumMismatch)
        }
        XCTAssertTrue(SHA256.constantTimeEquals([1, 2, 3], [1, 2, 3]))
        XCTAssertFalse(SHA256.constantTimeEquals([1, 2, 3], [1, 2, 4]))
        XCTAssertFalse(SHA256.constantTimeEquals([1, 2, 3], [1, 2]))
    }

    /// Only names the library writes, `<record>.<pid>-<UUID>.tmp`, are swept; a user's files that end in
    /// `.tmp` stay, in a claimed folder and in a shared one (where a name like `2023-10-report.tmp` once
    /// read as process 2023's).
    func testOnlyTheLibrarysTemporaryFilesAreSwept() throws {
        let users = ["notes.tmp", "2023-10-report.tmp", "a.item.1234.tmp", "1234-\(UUID()).tmp"]
        let crashed = "a.item.2147483646-\(UUID()).tmp"
        for claimed in [false, true] {
            let url = try makeOutboxFolder()
            for name in users + [crashed] {
                try Data("mine".utf8).write(to: url.appendingPathComponent(name))
            }
            let claim = claimed ? try DurableFolderLock.claim("lock", in: url) : nil
            DurableFolder(url: url, claim: claim).removeAbandonedTemporaryFiles()
            let left = Set(try FileManager.default.contentsOfDirectory(atPath: url.path))
            XCTAssertEqual(left.subtracting(["lock"]), Set(users), claimed ? "claimed" : "shared")
        }
        XCTAssertEqual(DurableFolder.temporaryWriter(of: "a.item.42-\(UUID()).tmp"), 42)
        XCTAssertNil(DurableFolder.temporaryWriter(of: "a.item.+42-\(UUID()).tmp"))
    }

    /// A folder the library makes is 0700; one the app made keeps its mode; a link to a folder is never
    /// followed to change the folder it names.
    func testOnlyFoldersTheLibraryMakesOrOwnsAreMadePrivate() throws {
        let root = try makeOutboxFolder()
        let made = root.appendingPathComponent("new/records")
        _ = DurableFolder(url: made)
        XCTAssertEqual(try mode(of: made), 0o700)

        let existing = root.appendingPathComponent("app")
        try FileManager.default.createDirectory(
            at: existing, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        _ = DurableFolder(url: existing)
        _ = try DurableFolderLock.claim("lock", in: existing, restrictingExisting: false)
        XCTAssertEqual(try mode(of: existing), 0o755, "an existing folder the app named")

        let link = root.appendingPathComponent("own.outbox")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: existing)
        _ = try DurableFolderLock.claim("own-lock", in: link)
        XCTAssertEqual(try mode(of: existing), 0o755, "the folder a link names")
    }

    private func mode(of url: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
    }
}
