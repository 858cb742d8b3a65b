/// gzip framing (RFC 1952) around a ``DeflateEncoder`` stream, fed piece by piece: header,
/// compressed data, then CRC-32 and size. An endless body simply never reaches `finish()`.
struct GzipEncoder {
    /// ID1, ID2, CM=8 (deflate), no flags, no modification time, no extra flags, OS unknown.
    private static let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 0xFF]

    private var deflate = DeflateEncoder()
    private var crc = CRC32()
    private var size: UInt32 = 0
    private var sentHeader = false

    /// The compressed bytes `piece` completes (the first call's start with the gzip header).
    mutating func compress(_ piece: [UInt8]) -> [UInt8] {
        crc.update(piece)
        size &+= UInt32(truncatingIfNeeded: piece.count)
        return takeHeader() + deflate.compress(piece)
    }

    /// The end of the stream: the last deflate bits, the CRC-32 and the size modulo 2³².
    mutating func finish() -> [UInt8] {
        var tail = takeHeader() + deflate.finish()
        for value in [crc.checksum, size] {
            tail += (0..<4).map { UInt8(truncatingIfNeeded: value >> UInt32(8 * $0)) }
        }
        return tail
    }

    /// `bytes` gzip-encoded whole.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var encoder = GzipEncoder()
        return encoder.compress(bytes) + encoder.finish()
    }

    private mutating func takeHeader() -> [UInt8] {
        guard !sentHeader else { return [] }
        sentHeader = true
        return Self.header
    }
}
