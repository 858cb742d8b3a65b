/// The one set of Huffman codes every block of `DeflateEncoder` uses, sent as a dynamic-code
/// block header (RFC 1951 §3.2.7).
///
/// Why not the fixed codes of BTYPE=01: there a length-258, distance-1 match costs 13 bits,
/// so a run of one byte shrinks only about 160 times. These codes give that match 1 bit for
/// the length and 1 bit for the distance (about 1/1000, what a gzip bomb needs), and every
/// other symbol 5 to 10 bits, so any input still encodes. The code sets are complete, as
/// zlib's inflate requires.
enum DeflateCodeTable {
    /// The literal/length symbol for a length-258 match.
    static let longestMatchSymbol = 285
    /// The end-of-block symbol.
    static let endOfBlock = 256

    /// Literal/length code lengths: symbol 285 (length 258) gets 1 bit; 227 symbols get 9 bits
    /// and 58 get 10, which fills the rest of the code space exactly (1/2 + 227/512 + 58/1024 = 1).
    private static let literalLengths: [Int] = (0...285).map { symbol in
        symbol == longestMatchSymbol ? 1 : symbol <= 226 ? 9 : 10
    }

    /// Distance code lengths: code 0 (distance 1) gets 1 bit; codes 1–3 get 5, 4–29 get 6
    /// (1/2 + 3/32 + 26/64 = 1).
    private static let distanceLengths: [Int] = (0...29).map { code in
        code == 0 ? 1 : code <= 3 ? 5 : 6
    }

    /// Lengths of the code-length code's symbols: only 1, 5, 6, 9 and 10 occur above.
    private static let codeLengthLengths: [Int] = {
        var lengths = [Int](repeating: 0, count: 19)
        lengths[9] = 1
        lengths[10] = 2
        lengths[6] = 3
        lengths[5] = 4
        lengths[1] = 4
        return lengths
    }()

    /// The order in which the header lists the code-length code's lengths (RFC 1951 §3.2.7).
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    static let literalCodes = HuffmanCode.canonical(lengths: literalLengths)
    static let distanceCodes = HuffmanCode.canonical(lengths: distanceLengths)

    /// The block header: BFINAL set (the stream is one block, however long), BTYPE=10, and the
    /// code lengths above.
    static func writeBlockHeader(to bits: inout BitWriter) {
        let listed = (codeLengthOrder.lastIndex { codeLengthLengths[$0] > 0 } ?? 3) + 1
        bits.write(1, count: 1)
        bits.write(2, count: 2)
        bits.write(UInt32(literalLengths.count - 257), count: 5)
        bits.write(UInt32(distanceLengths.count - 1), count: 5)
        bits.write(UInt32(listed - 4), count: 4)
        for symbol in codeLengthOrder.prefix(listed) {
            bits.write(UInt32(codeLengthLengths[symbol]), count: 3)
        }
        let codeLengthCodes = HuffmanCode.canonical(lengths: codeLengthLengths)
        for length in literalLengths + distanceLengths {
            bits.write(codeLengthCodes[length])
        }
    }

    /// Base lengths of the length symbols 257–285 and their extra bits (RFC 1951 §3.2.5).
    static let lengthBases = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163,
        195,
        227, 258,
    ]
    static let lengthExtraBits = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]

    /// For each match length 0...258, the index of its length symbol (symbol − 257).
    static let lengthIndex: [Int] = (0...258).map { length in
        length == 258 ? 28 : (lengthBases.lastIndex { $0 <= length } ?? 0)
    }

    /// Base distances of the distance codes 0–29 and their extra bits.
    static let distanceBases = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
        4097, 6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtraBits = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    /// The distance code for a distance of 1...32768: two codes per power of two above 4.
    static func distanceCode(_ distance: Int) -> Int {
        guard distance > 4 else { return distance - 1 }
        let offset = distance - 1
        let topBit = Int.bitWidth - 1 - offset.leadingZeroBitCount
        return 2 * topBit + ((offset >> (topBit - 1)) & 1)
    }
}
