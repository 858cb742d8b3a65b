import Foundation

/// Appends one request's body to an upload's stored file as the pieces arrive, keeping no more than the
/// upload has room for, and counts every byte that came. Used on one connection's thread only.
final class UploadAppender {
    private let handle: FileHandle?
    private let room: Int64
    /// Every byte of the body that arrived, stored or not.
    private(set) var received: Int64 = 0
    /// The file's length before this append.
    private var start: UInt64 = 0

    /// Appends to `file`, at most `room` bytes; `nil` when the file cannot be opened. With no file, it only
    /// counts.
    init?(file: URL?, room: Int64) {
        if let file {
            guard let handle = try? FileHandle(forWritingTo: file) else { return nil }
            start = (try? handle.seekToEnd()) ?? 0
            self.handle = handle
        } else {
            handle = nil
        }
        self.room = max(0, room)
    }

    /// Whether more bytes came than the upload had room for.
    var overflowed: Bool { received > room }

    /// The bytes stored, once written: what advances the upload's offset.
    var stored: Int64 { min(received, room) }

    func write(_ piece: Data) {
        let fits = Int(max(0, min(Int64(piece.count), room - received)))
        if fits > 0 { try? handle?.write(contentsOf: piece.prefix(fits)) }
        received += Int64(piece.count)
    }

    /// Takes back every byte this append wrote: the file as it was before it, as a server that keeps nothing
    /// of an append cut short.
    func discard() {
        try? handle?.truncate(atOffset: start)
    }

    /// Closes the file: what was written is on disk for the next reader.
    func close() {
        try? handle?.close()
    }
}
