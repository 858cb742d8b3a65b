import Foundation

/// SHA-256 and HMAC-SHA256 for the cache's keyed fingerprints and the durable records' checksums: no
/// dependencies, and no CryptoKit on Linux. A digest that authenticates something is compared with
/// ``constantTimeEquals(_:_:)``. The tests' request-signing example uses it too.
package enum SHA256 {
    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
        0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
        0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
        0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
        0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
        0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
        0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
        0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
        0xc671_78f2,
    ]

    private static let initialState: [UInt32] = [
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
        0x5be0_cd19,
    ]

    static let blockLength = 64

    /// The 32-byte digest of `message`.
    package static func hash(_ message: some Collection<UInt8>) -> [UInt8] {
        var hasher = Hasher()
        hasher.update(message)
        return hasher.finalize()
    }

    /// A digest fed in parts, as if they were one message: a record's header and payload are hashed
    /// without being copied into one buffer. Whole blocks are read in place; only a block's worth waits.
    package struct Hasher {
        private var state = SHA256.initialState
        private var schedule = [UInt32](repeating: 0, count: 64)
        /// Bytes of the current block not yet compressed; fewer than a block.
        private var pending: [UInt8] = []
        private var length: UInt64 = 0

        /// A hasher that has seen nothing.
        package init() {}

        /// Feeds `bytes`, after everything fed before.
        ///
        /// - Parameter bytes: The next part of the message.
        package mutating func update(_ bytes: some Sequence<UInt8>) {
            let contiguous: Void? = bytes.withContiguousStorageIfAvailable {
                update(UnsafeRawBufferPointer($0))
            }
            if contiguous == nil { Array(bytes).withUnsafeBytes { update($0) } }
        }

        private mutating func update(_ bytes: UnsafeRawBufferPointer) {
            length &+= UInt64(bytes.count)
            var offset = 0
            if !pending.isEmpty {
                offset = min(blockLength - pending.count, bytes.count)
                pending.append(contentsOf: bytes[0..<offset])
                guard pending.count == blockLength else { return }
                pending.withUnsafeBytes { SHA256.compress($0, at: 0, state: &state, schedule: &schedule) }
                pending.removeAll(keepingCapacity: true)
            }
            while bytes.count - offset >= blockLength {
                SHA256.compress(bytes, at: offset, state: &state, schedule: &schedule)
                offset += blockLength
            }
            pending.append(contentsOf: bytes[offset...])
        }

        /// The digest of everything fed.
        ///
        /// - Returns: The 32-byte digest.
        package func finalize() -> [UInt8] {
            var padded = self
            var tail: [UInt8] = [0x80]
            while (pending.count + tail.count) % blockLength != 56 { tail.append(0) }
            withUnsafeBytes(of: (length &* 8).bigEndian) { tail.append(contentsOf: $0) }
            padded.update(tail)
            return padded.state.flatMap { withUnsafeBytes(of: $0.bigEndian, Array.init) }
        }
    }

    fileprivate static func compress(
        _ bytes: UnsafeRawBufferPointer, at start: Int, state: inout [UInt32], schedule: inout [UInt32]
    ) {
        for index in 0..<16 {
            schedule[index] = UInt32(
                bigEndian: bytes.loadUnaligned(fromByteOffset: start + index * 4, as: UInt32.self))
        }
        for index in 16..<64 {
            let early = schedule[index - 15]
            let late = schedule[index - 2]
            let sigma0 = rotate(early, 7) ^ rotate(early, 18) ^ (early >> 3)
            let sigma1 = rotate(late, 17) ^ rotate(late, 19) ^ (late >> 10)
            schedule[index] = schedule[index - 16] &+ sigma0 &+ schedule[index - 7] &+ sigma1
        }
        var (a, b, c, d, e, f, g, h) = (
            state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
        )
        for index in 0..<64 {
            let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
            let choice = (e & f) ^ (~e & g)
            let first = h &+ sum1 &+ choice &+ roundConstants[index] &+ schedule[index]
            let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
            let majority = (a & b) ^ (a & c) ^ (b & c)
            let second = sum0 &+ majority
            (h, g, f, e, d, c, b, a) = (g, f, e, d &+ first, c, b, a, first &+ second)
        }
        for (index, word) in [a, b, c, d, e, f, g, h].enumerated() { state[index] &+= word }
    }

    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
        (value >> count) | (value << (32 - count))
    }

    /// HMAC-SHA256 of `message` under `key` (RFC 2104): a key longer than a block is hashed first.
    package static func hmac(key: some Collection<UInt8>, message: some Collection<UInt8>) -> [UInt8] {
        var block = key.count > blockLength ? hash(key) : Array(key)
        block += [UInt8](repeating: 0, count: blockLength - block.count)
        var inner = Hasher()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = Hasher()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }

    /// Whether `first` and `second` hold the same bytes, in a time that depends on their lengths only:
    /// every byte is compared, so a forger timing the comparison of a keyed checksum learns nothing of
    /// how many of its leading bytes were right.
    ///
    /// - Parameters:
    ///   - first: A digest.
    ///   - second: Another.
    /// - Returns: Whether they are equal.
    package static func constantTimeEquals(_ first: [UInt8], _ second: [UInt8]) -> Bool {
        guard first.count == second.count else { return false }
        var difference: UInt8 = 0
        for index in first.indices { difference |= first[index] ^ second[index] }
        return difference == 0
    }

    package static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
