import Foundation

/// A transfer a ``TransferStore`` keeps: one not finished, by this process or an earlier one.
public struct StoredTransfer: Sendable, Hashable, Identifiable {
    /// What the transfer does.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A resumable upload from a file.
        case upload
        /// A download to a file.
        case download
    }

    /// The transfer's identifier, stable across launches.
    public let id: UUID
    /// Upload or download.
    public let kind: Kind
    /// The upload's source file, or the download's destination.
    public let file: URL
    /// The download's URL, or the URL the upload was created at (its creation URL).
    public let remoteURL: URL
    /// What is done: the bytes the server last acknowledged (upload), or those on disk (download).
    /// Resuming may find more: the upload asks the server first.
    public let completedBytes: Int64
    /// The file's size, when known.
    public let expectedBytes: Int64?
}
