/// A streaming deflate compressor (RFC 1951), fed piece by piece, so an endless body can be
/// compressed while it is sent.
///
/// The whole stream is one block with the codes of ``DeflateCodeTable``. Matches are found by
/// a simple greedy matcher: a run of the previous byte (distance 1), else the last earlier
/// place the next three bytes occurred, within the 32 KiB window. A match never reaches past
/// the bytes given so far. Anything without a match of at least 3 bytes is sent as literals,
/// so every input encodes.
struct DeflateEncoder {
    private static let windowSize = 32 * 1024
    private static let hashBits = 15
    private static let shortestMatch = 3
    private static let longestMatch = 258

    private var bits = BitWriter()
    private var startedBlock = false
    /// The last `windowSize` bytes already encoded, then the piece being encoded.
    private var window: [UInt8] = []
    /// The stream position of `window[0]`.
    private var windowStart = 0
    /// For each hash of three bytes, the stream position where they last began; -1: never.
    private var lastPosition = [Int](repeating: -1, count: 1 << hashBits)

    /// The compressed bytes `piece` completes; a few bits may wait for the next piece.
    mutating func compress(_ piece: [UInt8]) -> [UInt8] {
        startBlockIfNeeded()
        let excess = window.count - Self.windowSize
        if excess > 0 {
            window.removeFirst(excess)
            windowStart += excess
        }
        let start = window.count
        window += piece
        // A second reference to the same storage: the loop reads it while writing into `self`.
        let bytes = window
        bytes.withUnsafeBufferPointer { encode($0, from: start) }
        return bits.takeBytes()
    }

    /// The end of the stream: the end-of-block code and padding to a whole byte.
    mutating func finish() -> [UInt8] {
        startBlockIfNeeded()
        bits.write(DeflateCodeTable.literalCodes[DeflateCodeTable.endOfBlock])
        bits.alignToByte()
        return bits.takeBytes()
    }

    private mutating func startBlockIfNeeded() {
        guard !startedBlock else { return }
        startedBlock = true
        DeflateCodeTable.writeBlockHeader(to: &bits)
    }

    private mutating func encode(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) {
        var index = start
        while index < bytes.count {
            let match = longestMatch(at: index, in: bytes)
            if match.length >= Self.shortestMatch {
                writeMatch(length: match.length, distance: match.distance)
                index += match.length
            } else {
                bits.write(DeflateCodeTable.literalCodes[Int(bytes[index])])
                index += 1
            }
        }
    }

    private mutating func longestMatch(
        at index: Int, in bytes: UnsafeBufferPointer<UInt8>
    ) -> (length: Int, distance: Int) {
        let limit = min(Self.longestMatch, bytes.count - index)
        guard limit >= Self.shortestMatch else { return (0, 0) }
        var best = (length: 0, distance: 0)
        if index > 0 {
            best = (Self.commonLength(bytes, index, index - 1, limit), 1)
        }
        let key = Self.hash(bytes[index], bytes[index + 1], bytes[index + 2])
        let candidate = lastPosition[key] - windowStart
        lastPosition[key] = windowStart + index
        if best.length < limit, candidate >= 0, candidate < index - 1,
            index - candidate <= Self.windowSize
        {
            let length = Self.commonLength(bytes, index, candidate, limit)
            if length > best.length { best = (length, index - candidate) }
        }
        return best
    }

    private mutating func writeMatch(length: Int, distance: Int) {
        let lengthIndex = DeflateCodeTable.lengthIndex[length]
        bits.write(DeflateCodeTable.literalCodes[257 + lengthIndex])
        bits.write(
            UInt32(length - DeflateCodeTable.lengthBases[lengthIndex]),
            count: DeflateCodeTable.lengthExtraBits[lengthIndex])
        let distanceCode = DeflateCodeTable.distanceCode(distance)
        bits.write(DeflateCodeTable.distanceCodes[distanceCode])
        bits.write(
            UInt32(distance - DeflateCodeTable.distanceBases[distanceCode]),
            count: DeflateCodeTable.distanceExtraBits[distanceCode])
    }

    /// How many bytes from `index` repeat those from `earlier` (overlapping is fine: the decoder
    /// copies byte by byte), up to `limit`.
    private static func commonLength(
        _ bytes: UnsafeBufferPointer<UInt8>, _ index: Int, _ earlier: Int, _ limit: Int
    ) -> Int {
        var length = 0
        while length < limit && bytes[index + length] == bytes[earlier + length] { length += 1 }
        return length
    }

    private static func hash(_ first: UInt8, _ second: UInt8, _ third: UInt8) -> Int {
        let key = UInt32(first) | UInt32(second) << 8 | UInt32(third) << 16
        return Int((key &* 2_654_435_761) >> UInt32(32 - hashBits))
    }
}
