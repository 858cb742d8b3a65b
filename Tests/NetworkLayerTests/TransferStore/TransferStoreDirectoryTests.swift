import Foundation
import NetworkTestSupport
import XCTest

@testable import NetworkLayer

/// What a store does with the directory the app names and the key it is given: a new directory is
/// private, an existing one keeps its mode and its other files, a key too short to keep forgers out is
/// refused.
final class TransferStoreDirectoryTests: XCTestCase {
    private func mode(of url: URL) throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int
    }

    func testANewDirectoryIsPrivateAndAnExistingOneKeepsItsModeAndFiles() throws {
        let root = try makeOutboxFolder()
        let made = root.appendingPathComponent("transfers")
        try TransferStore(directory: made, layer: unreachableLayer()).close()
        XCTAssertEqual(try mode(of: made), 0o700)

        let existing = root.appendingPathComponent("Documents")
        try FileManager.default.createDirectory(
            at: existing, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let users = ["notes.tmp", "2023-10-report.tmp"].map(existing.appendingPathComponent)
        for file in users { try Data("mine".utf8).write(to: file) }
        try TransferStore(directory: existing, layer: unreachableLayer()).close()
        XCTAssertEqual(try mode(of: existing), 0o755, "the app's folder")
        for file in users { XCTAssertTrue(FileManager.default.fileExists(atPath: file.path), "\(file)") }
    }

    /// `Data()` or a few bytes would authenticate nothing: refused, saying why, before the directory
    /// is touched.
    func testARecordKeyShorterThan16BytesIsRefused() throws {
        let directory = try makeOutboxFolder().appendingPathComponent("store")
        for length in [0, 15] {
            XCTAssertThrowsError(
                try TransferStore(
                    directory: directory, layer: unreachableLayer(), recordKey: Data(count: length))
            ) { error in
                guard case .writeFailed(let reason) = error as? TransferStoreError else {
                    return XCTFail("\(error)")
                }
                XCTAssertTrue(reason.contains("at least 16"), reason)
            }
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path))
        let store = try TransferStore(
            directory: directory, layer: unreachableLayer(), recordKey: Data(count: 16))
        store.close()
    }
}
