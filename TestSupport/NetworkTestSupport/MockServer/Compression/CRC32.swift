/// The CRC-32 of ISO 3309 that gzip's trailer carries (RFC 1952 §8), computed incrementally.
struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    private var state: UInt32 = 0xFFFF_FFFF

    /// The checksum of every byte given so far.
    var checksum: UInt32 { state ^ 0xFFFF_FFFF }

    /// Adds `bytes` to the checksum.
    mutating func update(_ bytes: [UInt8]) {
        // Local copies and raw pointers: this loop runs for every body byte, in debug builds too.
        let table = Self.table
        var crc = state
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { input in
                for byte in input {
                    crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
                }
            }
        }
        state = crc
    }
}
