import Foundation

/// The bytes of one durable record: a fixed header, then the caller's payload.
///
/// ```
/// 0  "NLDR"                 magic: a file of someone else's is never read as a record
/// 4  format version (UInt16) this layout; 1
/// 6  content version (UInt16) the payload's own schema, chosen by the caller
/// 8  payload length (UInt32)
/// 12 checksum: SHA-256 of bytes 0..<12 and the payload; with a key, the HMAC-SHA256 of that digest
/// 44 payload
/// ```
///
/// All integers are big-endian. Why a checksum although records are renamed into place whole: without a
/// flush to the device, a power loss may leave a renamed file short or zero-filled, and storage can rot;
/// the length and checksum turn both into a record reported as damaged instead of a wrong request sent.
/// Why a key: whoever can write the folder can write a record with a valid checksum; under a key kept
/// outside the folder (the Keychain), a record the app didn't write fails its checksum.
package enum DurableRecord {
    /// The layout this code writes and reads.
    package static let formatVersion: UInt16 = 1
    private static let magic: [UInt8] = Array("NLDR".utf8)
    private static let headerLength = 12
    private static let checksumLength = 32
    /// The bytes a record takes besides its payload.
    package static let overhead = headerLength + checksumLength

    /// A record holding `payload` under `contentVersion`.
    ///
    /// - Parameters:
    ///   - payload: The caller's bytes; at most 4 GiB.
    ///   - contentVersion: The payload's schema version, returned by ``decode(_:key:)``.
    ///   - key: The secret that authenticates the record, or `nil` for a plain checksum.
    /// - Returns: The record's bytes.
    package static func encode(_ payload: Data, contentVersion: UInt16, key: [UInt8]? = nil) -> Data {
        var header = magic
        append(formatVersion, to: &header)
        append(contentVersion, to: &header)
        append(UInt32(truncatingIfNeeded: payload.count), to: &header)
        var record = Data(capacity: overhead + payload.count)
        record.append(contentsOf: header)
        record.append(contentsOf: checksum(header, payload, key: key))
        record.append(payload)
        return record
    }

    /// The payload and its content version, or why the bytes are no whole record.
    ///
    /// - Parameters:
    ///   - bytes: A file's contents.
    ///   - key: The secret the record was written with, or `nil`.
    /// - Returns: The content version and the payload: a slice of `bytes`, not a copy.
    package static func decode(_ bytes: Data, key: [UInt8]? = nil) throws(DurableRecordDamage) -> (
        contentVersion: UInt16, payload: Data
    ) {
        guard bytes.count >= overhead else { throw .truncated }
        let header = [UInt8](bytes.prefix(overhead))
        guard Array(header[0..<4]) == magic else { throw .notARecord }
        let format = integer(header[4..<6], as: UInt16.self)
        guard format == formatVersion else { throw .unsupportedFormat(format) }
        let length = Int(integer(header[8..<12], as: UInt32.self))
        guard bytes.count == overhead + length else {
            throw bytes.count < overhead + length ? .truncated : .trailingBytes
        }
        let payload = bytes.dropFirst(overhead)
        let expected = checksum(Array(header[..<headerLength]), payload, key: key)
        guard SHA256.constantTimeEquals(expected, Array(header[headerLength...])) else {
            throw .checksumMismatch
        }
        return (integer(header[6..<8], as: UInt16.self), payload)
    }

    /// The header and payload hashed in place: a record of megabytes is not copied to be checked.
    private static func checksum(_ header: [UInt8], _ payload: Data, key: [UInt8]?) -> [UInt8] {
        var hasher = SHA256.Hasher()
        hasher.update(header)
        hasher.update(payload)
        let digest = hasher.finalize()
        return key.map { SHA256.hmac(key: $0, message: digest) } ?? digest
    }

    private static func append<Integer: FixedWidthInteger>(_ value: Integer, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.bigEndian) { bytes.append(contentsOf: $0) }
    }

    private static func integer<Integer: FixedWidthInteger>(_ bytes: ArraySlice<UInt8>, as: Integer.Type)
        -> Integer
    {
        bytes.reduce(0) { $0 << 8 | Integer($1) }
    }
}

/// Why a file is no whole record: what a crash, a power loss or another program left.
package enum DurableRecordDamage: Error, Equatable, Sendable {
    /// Shorter than its header says: cut off.
    case truncated
    /// Longer than its header says.
    case trailingBytes
    /// No record's magic: not written by this code.
    case notARecord
    /// A layout this code doesn't know (written by a newer version of the library).
    case unsupportedFormat(UInt16)
    /// The bytes don't match their checksum: damaged, or written without the folder's key.
    case checksumMismatch
    /// Larger than any record its owner writes: not read at all.
    case tooLarge
    /// A symbolic link, a FIFO, a device or a folder under a record's name: not read at all.
    case notAFile
    /// A whole record under a name other than the one it gives itself: a copy.
    case misnamed
}
