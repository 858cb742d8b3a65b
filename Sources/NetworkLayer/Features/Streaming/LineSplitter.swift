import Foundation

/// Cuts a byte stream into lines (CRLF, LF or CR, a CRLF split across chunks still one end) for SSE and
/// JSON Lines. Owned by one transfer, on the delegate queue.
struct LineSplitter {
    /// The longest line kept; a longer one fails the stream instead of growing memory.
    let maximumLineLength: Int
    private var pending: [UInt8] = []
    /// The last chunk ended in CR: an LF opening the next one belongs to it.
    private var skipsLineFeed = false

    init(maximumLineLength: Int) {
        self.maximumLineLength = maximumLineLength
    }

    /// The lines `chunk` completes, without line ends; on an over-long one, those before it and `overflow`.
    mutating func lines(in chunk: Data) -> (lines: [ArraySlice<UInt8>], overflow: Bool) {
        // An empty chunk must not forget a CR that ended the last one.
        guard !chunk.isEmpty else { return ([], false) }
        var lines: [ArraySlice<UInt8>] = []
        var bytes = [UInt8](chunk)
        var start = skipsLineFeed && bytes.first == 0x0A ? 1 : 0
        skipsLineFeed = false
        while let end = bytes[start...].firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) {
            lines.append(pending.isEmpty ? bytes[start..<end] : (pending + bytes[start..<end])[...])
            pending = []
            let isReturn = bytes[end] == 0x0D
            // Only a CR that ends the chunk leaves the next one's LF to skip.
            skipsLineFeed = isReturn && end + 1 == bytes.count
            start = end + (isReturn && bytes.dropFirst(end + 1).first == 0x0A ? 2 : 1)
        }
        if start < bytes.count {
            if pending.isEmpty, start == 0 {
                swap(&pending, &bytes)
            } else {
                pending.append(contentsOf: bytes[start...])
            }
        }
        if let tooLong = lines.firstIndex(where: { $0.count > maximumLineLength }) {
            return (Array(lines[..<tooLong]), true)
        }
        return (lines, pending.count > maximumLineLength)
    }

    /// A last line without its line end, when the stream ends.
    mutating func remainder() -> ArraySlice<UInt8>? {
        defer { pending = [] }
        return pending.isEmpty ? nil : pending[...]
    }
}
