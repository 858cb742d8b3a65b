import Foundation
import XCTest

@testable import NetworkLayer

/// The durable-record format and folder: whole records or reported damage, nothing half-written, one
/// owner at a time.
final class DurableRecordTests: XCTestCase {
    func testARecordRoundTripsWithItsContentVersion() throws {
        let payload = Data("{\"index\":7}".utf8)
        let record = DurableRecord.encode(payload, contentVersion: 3)
        XCTAssertEqual(record.count, payload.count + DurableRecord.overhead)
        let decoded = try DurableRecord.decode(record)
        XCTAssertEqual(decoded.contentVersion, 3)
        XCTAssertEqual(decoded.payload, payload)
    }

    func testEveryTruncationAndEveryFlippedByteIsReported() {
        let record = DurableRecord.encode(Data("a payload worth keeping".utf8), contentVersion: 1)
        for length in 0..<record.count {
            XCTAssertThrowsError(try DurableRecord.decode(record.prefix(length)), "cut at \(length)")
        }
        for index in 0..<record.count {
            var flipped = record
            flipped[index] ^= 0x40
            XCTAssertThrowsError(try DurableRecord.decode(flipped), "byte \(index) flipped")
        }
        XCTAssertThrowsError(try DurableRecord.decode(record + Data([0]))) {
            XCTAssertEqual($0 as? DurableRecordDamage, .trailingBytes)
        }
    }

    func testAnUnknownFormatVersionIsNamed() {
        var record = DurableRecord.encode(Data("x".utf8), contentVersion: 1)
        record[5] = 9
        XCTAssertThrowsError(try DurableRecord.decode(record)) {
            XCTAssertEqual($0 as? DurableRecordDamage, .unsupportedFormat(9))
        }
    }

    func testAFailedWriteLeavesNothingAndKeepsTheRecordItReplaced() throws {
        let folder = DurableFolder(url: try makeOutboxFolder())
        try folder.write(Data("first".utf8), contentVersion: 1, as: "a.item", flushToDevice: false)
        folder.writeBudget.withLock { $0 = 20 }
        XCTAssertThrowsError(
            try folder.write(
                Data("second, longer".utf8), contentVersion: 1, as: "a.item", flushToDevice: true)
        ) { error in
            XCTAssertEqual((error as? DurableWriteError)?.code, Int(ENOSPC))
        }
        XCTAssertThrowsError(
            try folder.write(Data("new".utf8), contentVersion: 1, as: "b.item", flushToDevice: false))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        XCTAssertEqual(files, ["a.item"], "no temporary file, no half record")
        XCTAssertEqual(try folder.read("a.item", maximumSize: 100)?.payload, Data("first".utf8))
    }

    func testTemporaryFilesOfACrashedWriterAreRemovedOnOpen() throws {
        let url = try makeOutboxFolder()
        try Data("half".utf8).write(to: url.appendingPathComponent("a.item.1234-\(UUID()).tmp"))
        let claim = try XCTUnwrap(try DurableFolderLock.claim("lock", in: url))
        let folder = DurableFolder(url: url, claim: claim)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.url.path), ["lock"])
    }

    func testASecondClaimIsRefusedUntilTheFirstIsReleased() throws {
        let url = try makeOutboxFolder()
        var first = try DurableFolderLock.claim("lock", in: url)
        XCTAssertNotNil(first)
        XCTAssertNil(
            try DurableFolderLock.claim("lock", in: url), "flock refuses a second holder in one process")
        first = nil
        XCTAssertNotNil(try DurableFolderLock.claim("lock", in: url))
    }

    /// An owner's `close()` releases the claim while it still holds it; releasing again, and the deinit,
    /// must not close the descriptor a later claim now has (the system reuses the number).
    func testAReleasedClaimIsFreeAtOnceAndReleasingItAgainLeavesTheNextHolderAlone() throws {
        let url = try makeOutboxFolder()
        var first = try XCTUnwrap(try DurableFolderLock.claim("lock", in: url))
        first.release()
        let second = try XCTUnwrap(try DurableFolderLock.claim("lock", in: url), "free once released")
        first.release()
        first = try XCTUnwrap(try DurableFolderLock.claim("other", in: url))
        XCTAssertNil(try DurableFolderLock.claim("lock", in: url), "still held by the second holder")
        withExtendedLifetime(second) {}
    }

    func testFlushingToTheDeviceWritesTheSameRecord() throws {
        let folder = DurableFolder(url: try makeOutboxFolder())
        try folder.write(Data("durable".utf8), contentVersion: 2, as: "a.item", flushToDevice: true)
        let record = try XCTUnwrap(try folder.read("a.item", maximumSize: 100))
        XCTAssertEqual(record.contentVersion, 2)
        XCTAssertEqual(record.payload, Data("durable".utf8))
        let permissions =
            try FileManager.default.attributesOfItem(
                atPath: folder.url.appendingPathComponent("a.item").path)[.posixPermissions] as? Int
        XCTAssertEqual(permissions, 0o600, "bodies may be private")
    }
}
