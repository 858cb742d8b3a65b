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
        var start = 0
        if skipsLineFeed, bytes.first == 0x0A { start = 1 }
        skipsLineFeed = false
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            guard byte == 0x0A || byte == 0x0D else {
                index += 1
                continue
            }
            if pending.isEmpty {
                lines.append(bytes[start..<index])
            } else {
                pending.append(contentsOf: bytes[start..<index])
                lines.append(pending[...])
                pending = []
            }
            if byte == 0x0D {
                if index + 1 < bytes.count {
                    if bytes[index + 1] == 0x0A { index += 1 }
                } else {
                    skipsLineFeed = true
                }
            }
            index += 1
            start = index
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
