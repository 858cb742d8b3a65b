/// One symbol's code in a canonical Huffman code (RFC 1951 §3.2.2).
struct HuffmanCode: Sendable {
    /// The code's bits in reverse order, ready for `BitWriter`'s least-significant-first packing.
    var reversedBits: UInt32
    /// How many bits the code has.
    var length: Int

    /// The canonical codes for symbols with these code `lengths` (0: the symbol is unused).
    static func canonical(lengths: [Int]) -> [HuffmanCode] {
        let longest = lengths.max() ?? 0
        var countOfLength = [Int](repeating: 0, count: longest + 1)
        for length in lengths where length > 0 { countOfLength[length] += 1 }
        var nextCode = [Int](repeating: 0, count: longest + 1)
        var code = 0
        for length in stride(from: 1, through: longest, by: 1) {
            code = (code + countOfLength[length - 1]) << 1
            nextCode[length] = code
        }
        return lengths.map { length in
            guard length > 0 else { return HuffmanCode(reversedBits: 0, length: 0) }
            defer { nextCode[length] += 1 }
            return HuffmanCode(
                reversedBits: reversed(UInt32(nextCode[length]), length: length), length: length)
        }
    }

    private static func reversed(_ value: UInt32, length: Int) -> UInt32 {
        var result: UInt32 = 0
        for bit in 0..<length { result |= ((value >> UInt32(bit)) & 1) << UInt32(length - 1 - bit) }
        return result
    }
}
