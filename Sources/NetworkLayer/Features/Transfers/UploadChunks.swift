import Foundation

/// How much of the file the next append of a resumable upload carries: the caller's
/// ``ResumableUpload/chunkSize``, halved after each `413` down to a floor. Owned by the upload's state lock.
struct UploadChunks: Sendable, Equatable {
    /// The most bytes the next append carries.
    private(set) var size: Int64
    /// The smallest size a `413` halves to: ``ResumableUpload/minimumChunkSize``, or the caller's size
    /// when smaller.
    let floor: Int64

    init(_ chunkSize: Int64) {
        size = max(1, chunkSize)
        floor = min(size, ResumableUpload.minimumChunkSize)
    }

    /// The bytes the append from `offset` of a file of `length` bytes carries.
    func length(from offset: Int64, of length: Int64) -> Int64 {
        min(size, max(0, length - offset))
    }

    /// After a `413` to an append of `sent` bytes: the next ones carry half as many, not below ``floor``.
    ///
    /// - Returns: `false` when `sent` was no more than the floor: the upload can't go in smaller appends.
    mutating func shrink(after sent: Int64) -> Bool {
        guard sent > floor else { return false }
        size = max(floor, sent / 2)
        return true
    }
}
