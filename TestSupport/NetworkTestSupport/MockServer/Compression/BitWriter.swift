/// Packs values into bytes least significant bit first, the order deflate (RFC 1951 §3.1.1)
/// uses; whole bytes are handed out as they fill, a partial one waits for more bits.
struct BitWriter {
    private var bytes: [UInt8] = []
    private var pending: UInt64 = 0
    private var pendingCount = 0

    /// Appends the low `count` bits of `value` (at most 32).
    mutating func write(_ value: UInt32, count: Int) {
        pending |= UInt64(value) << UInt64(pendingCount)
        pendingCount += count
        while pendingCount >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: pending))
            pending >>= 8
            pendingCount -= 8
        }
    }

    /// Appends a Huffman code; its bits are stored reversed so they come out most significant first.
    mutating func write(_ code: HuffmanCode) {
        write(code.reversedBits, count: code.length)
    }

    /// Pads with zero bits up to the next byte boundary.
    mutating func alignToByte() {
        if pendingCount > 0 { write(0, count: 8 - pendingCount) }
    }

    /// The whole bytes written since the last call.
    mutating func takeBytes() -> [UInt8] {
        defer { bytes.removeAll(keepingCapacity: true) }
        return bytes
    }
}
