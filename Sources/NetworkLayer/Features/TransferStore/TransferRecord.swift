import Foundation

/// What a ``TransferStore`` keeps of one transfer: enough for a new process to send it again. Stored as
/// JSON in a durable record (its content version is ``TransferRecord/version``).
///
/// Never a credential header: ``TransferStore/send(_:successHandler:errorHandler:)`` refuses a request
/// carrying one (the layer's list), and the layer's interceptors and authenticator add fresh ones each
/// time the transfer is sent. A download's validators
/// and received bytes are not copied here: `<destination>.partial.json` and `.partial` hold them
/// (see `PartialDownload`), written as the bytes arrive.
struct TransferRecord: Codable, Sendable, Equatable {
    /// The layout this code writes; it reads this one and every earlier one.
    static let version: UInt16 = 1

    var id: UUID
    var kind: StoredTransfer.Kind
    /// The source (upload) or destination (download) file's path.
    var file: String
    /// The absolute URL: the creation URL of an upload.
    var url: String
    var method: String
    var headers: [String: String]
    /// The order records are listed in.
    var sequence: UInt64
    // An upload's.
    var contentType: String?
    var protocolName: String?
    var fallsBackToPlainUpload = false
    var uploadURL: String?
    /// The bytes the server last acknowledged, as last written.
    var offset: Int64 = 0
    var sourceSize: Int64?
    /// The source's modification date, seconds since 1970.
    var sourceModified: Double?
    /// The upload's ``ResumableUpload/chunkSize``, when not the default.
    var chunkSize: Int64?
    // A download's.
    var downloadOptions: Int?
    /// The request's own retry policy, which a resume keeps; `nil` for the layer's.
    var retryPolicy: StoredRetryPolicy?

    var fileURL: URL { URL(fileURLWithPath: file) }

    /// A source file's identity as the store compares it: its size and modification date (seconds since
    /// 1970); `nil` when it can't be read.
    static func source(of file: URL) -> (size: Int64, modified: Double)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
            let size = (attributes[.size] as? NSNumber)?.int64Value,
            let date = attributes[.modificationDate] as? Date
        else { return nil }
        return (size, date.timeIntervalSince1970)
    }

    /// The record's file name: its sequence zero-padded, so names sort as records were made.
    var fileName: String { String(format: "%020llu.transfer", sequence) }
}
