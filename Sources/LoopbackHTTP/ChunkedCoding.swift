/// The chunked transfer coding of a reply body (RFC 9112 §7.1).
package enum ChunkedCoding {
    /// The last chunk and the empty trailer section.
    package static let end: [UInt8] = Array("0\r\n\r\n".utf8)

    /// `bytes` as chunks of at most `maxChunk` bytes (`nil`: one chunk). Empty input gives no
    /// bytes, since an empty chunk would end the body.
    package static func frame(_ bytes: [UInt8], maxChunk: Int?) -> [UInt8] {
        let size = max(1, maxChunk ?? bytes.count)
        var wire: [UInt8] = []
        wire.reserveCapacity(bytes.count + (bytes.count / size + 1) * 12)
        var start = 0
        while start < bytes.count {
            let end = min(start + size, bytes.count)
            wire += Array(String(end - start, radix: 16).utf8) + [13, 10]
            wire += bytes[start..<end]
            wire += [13, 10]
            start = end
        }
        return wire
    }
}
