import Foundation

/// A disk entry's bytes: the magic, the metadata's length and a checksum of the rest, then the entry
/// without its body as JSON, then the body. Anything that doesn't add up (a short file, a wrong
/// checksum, garbage) decodes to `nil`.
enum CacheEntryCoding {
    private static let magic: [UInt8] = Array("NLC3".utf8)
    private static let headerLength = 4 + 4 + 8

    static func encode(_ entry: CachedResponse) -> Data? {
        var metadata = entry
        metadata.body = Data()
        guard let json = try? JSONEncoder().encode(metadata), json.count <= UInt32.max else { return nil }
        var data = Data(magic)
        data.reserveCapacity(headerLength + json.count + entry.body.count)
        append(UInt64(json.count), bytes: 4, to: &data)
        append(Fingerprint.hash(entry.body, into: Fingerprint.hash(json)), bytes: 8, to: &data)
        data.append(json)
        data.append(entry.body)
        return data
    }

    static func decode(_ data: Data) -> CachedResponse? {
        let header = [UInt8](data.prefix(headerLength))
        guard header.count == headerLength, Array(header[0..<4]) == magic,
            read(header, at: 4, count: 4) <= UInt64(data.count - headerLength)
        else { return nil }
        let start = data.startIndex + headerLength
        let json = Data(data[start..<start + Int(read(header, at: 4, count: 4))])
        let body = Data(data[(start + json.count)...])
        guard Fingerprint.hash(body, into: Fingerprint.hash(json)) == read(header, at: 8, count: 8),
            var entry = try? JSONDecoder().decode(CachedResponse.self, from: json)
        else { return nil }
        entry.body = body
        return entry
    }

    private static func append(_ value: UInt64, bytes: Int, to data: inout Data) {
        for index in (0..<bytes).reversed() {
            data.append(UInt8(truncatingIfNeeded: value >> (UInt64(index) * 8)))
        }
    }

    private static func read(_ bytes: [UInt8], at offset: Int, count: Int) -> UInt64 {
        bytes[offset..<offset + count].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
