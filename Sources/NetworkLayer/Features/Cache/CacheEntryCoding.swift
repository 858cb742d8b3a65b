import Foundation

/// A disk entry's bytes: a fixed header (magic, lengths, checksum), the metadata as JSON, then the
/// body. Anything that doesn't add up (a short file, a wrong checksum, garbage) decodes to `nil`.
enum CacheEntryCoding {
    private static let magic: [UInt8] = Array("NLC2".utf8)
    private static let headerLength = 4 + 4 + 8 + 8

    private struct Metadata: Codable {
        var url: URL
        var statusCode: Int
        var headers: [String: String]
        var requestTime: Double
        var responseTime: Double
        var varying: [String: String]
        /// ``CachePartition/tag``.
        var partition: String
    }

    static func encode(_ entry: CachedResponse) -> Data? {
        let metadata = Metadata(
            url: entry.url, statusCode: entry.statusCode, headers: entry.headers,
            requestTime: entry.requestTime.timeIntervalSince1970,
            responseTime: entry.responseTime.timeIntervalSince1970, varying: entry.varying,
            partition: entry.partition.tag)
        guard let json = try? JSONEncoder().encode(metadata), json.count <= UInt32.max else { return nil }
        let checksum = Fingerprint.hash(entry.body, into: Fingerprint.hash(json))
        var data = Data(capacity: headerLength + json.count + entry.body.count)
        data.append(contentsOf: magic)
        append(UInt64(json.count), bytes: 4, to: &data)
        append(UInt64(entry.body.count), bytes: 8, to: &data)
        append(checksum, bytes: 8, to: &data)
        data.append(json)
        data.append(entry.body)
        return data
    }

    static func decode(_ data: Data) -> CachedResponse? {
        let bytes = [UInt8](data.prefix(headerLength))
        guard bytes.count == headerLength, Array(bytes[0..<4]) == magic else { return nil }
        let jsonLength = read(bytes, at: 4, count: 4)
        let bodyLength = read(bytes, at: 8, count: 8)
        let checksum = read(bytes, at: 16, count: 8)
        guard jsonLength <= UInt64(data.count), bodyLength <= UInt64(data.count),
            UInt64(headerLength) + jsonLength + bodyLength == UInt64(data.count)
        else { return nil }
        let start = data.startIndex + headerLength
        let json = data.subdata(in: start..<start + Int(jsonLength))
        let body = data.subdata(in: start + Int(jsonLength)..<data.endIndex)
        guard Fingerprint.hash(body, into: Fingerprint.hash(json)) == checksum,
            let metadata = try? JSONDecoder().decode(Metadata.self, from: json),
            let partition = CachePartition(tag: metadata.partition)
        else { return nil }
        return CachedResponse(
            url: metadata.url, statusCode: metadata.statusCode, headers: metadata.headers, body: body,
            requestTime: Date(timeIntervalSince1970: metadata.requestTime),
            responseTime: Date(timeIntervalSince1970: metadata.responseTime), varying: metadata.varying,
            partition: partition)
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
