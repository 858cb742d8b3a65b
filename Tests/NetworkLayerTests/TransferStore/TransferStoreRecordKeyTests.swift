import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

/// Records someone else put in a store's directory: forged, copied; and the directory's permissions.
final class TransferStoreRecordKeyTests: XCTestCase {
    private let key = Data((0..<32).map { UInt8($0) })

    /// An upload that failed and stays recorded in a store on `directory` under `recordKey`.
    private func failedUpload(in directory: URL, recordKey: Data?) throws {
        let source = try BigFile.make(
            at: directory.deletingLastPathComponent().appendingPathComponent("video.mp4"), size: 1000)
        let store = try TransferStore(directory: directory, layer: unreachableLayer(), recordKey: recordKey)
        var request = NetworkRequest.upload(urlString: "files", fileURL: source, resumable: .tus)
        request.retryPolicy = RetryPolicy.none
        let outcome = try transferOutcome { try store.send(request, successHandler: $0, errorHandler: $1) }
        guard case .failure = outcome else {
            return XCTFail("nothing listens: \(String(describing: outcome))")
        }
        XCTAssertEqual(store.unfinishedTransfers.count, 1)
    }

    /// A record another program wrote, with a valid checksum, for a file the app can read and a server
    /// of its choosing: without a key the store would resume it; under a key it is set aside.
    func testARecordForgedWithAValidChecksumIsSetAsideUnderAKey() throws {
        let directory = try makeOutboxFolder().appendingPathComponent("store")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let forged = TransferRecord(
            id: UUID(), kind: .upload, file: "/etc/hostname", url: "https://collector.example/files",
            method: "POST", headers: [:], sequence: 5, protocolName: "tus")
        let file = directory.appendingPathComponent(forged.fileName)
        try DurableRecord.encode(try JSONEncoder().encode(forged), contentVersion: TransferRecord.version)
            .write(to: file)
        XCTAssertEqual(
            try TransferStore(directory: directory, layer: unreachableLayer()).unfinishedTransfers.count, 1,
            "without a key, a checksum is all a record needs")

        let store = try TransferStore(directory: directory, layer: unreachableLayer(), recordKey: key)
        XCTAssertEqual(store.unfinishedTransfers, [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: file.path + ".damaged"))
    }

    func testTheStoresOwnRecordsAreReadUnderItsKeyOnly() throws {
        let directory = try makeOutboxFolder().appendingPathComponent("store")
        try failedUpload(in: directory, recordKey: key)
        XCTAssertEqual(
            try TransferStore(directory: directory, layer: unreachableLayer(), recordKey: key)
                .unfinishedTransfers.count, 1)
        let otherKey = Data(repeating: 7, count: 32)
        XCTAssertEqual(
            try TransferStore(directory: directory, layer: unreachableLayer(), recordKey: otherKey)
                .unfinishedTransfers, [])
    }

    /// A copy under another name would come back at every launch: ``TransferStore/remove(_:)`` removes
    /// only the file named for the record.
    func testARecordCopiedUnderAnotherNameIsSetAside() throws {
        let directory = try makeOutboxFolder().appendingPathComponent("store")
        try failedUpload(in: directory, recordKey: nil)
        let name = try XCTUnwrap(
            FileManager.default.contentsOfDirectory(atPath: directory.path).first {
                $0.hasSuffix(".transfer")
            })
        try FileManager.default.copyItem(
            at: directory.appendingPathComponent(name),
            to: directory.appendingPathComponent("00000000000000000042.transfer"))

        do {
            let store = try TransferStore(directory: directory, layer: unreachableLayer())
            let transfer = try XCTUnwrap(store.unfinishedTransfers.first)
            store.remove(transfer)
            store.queue.sync {}
        }
        XCTAssertEqual(
            try TransferStore(directory: directory, layer: unreachableLayer()).unfinishedTransfers, [])
    }

    func testTheDirectoryIsReadableByTheUserOnly() throws {
        let directory = try makeOutboxFolder().appendingPathComponent("store")
        _ = try TransferStore(directory: directory, layer: unreachableLayer())
        let permissions = try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions]
        XCTAssertEqual(permissions as? Int, 0o700)
    }
}
