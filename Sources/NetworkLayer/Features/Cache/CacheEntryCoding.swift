import Foundation

/// A disk entry's payload, in a durable record of content version ``version``: the entry without its
/// body as JSON, preceded by its length, then the body. The record's checksum covers it all; anything
/// that doesn't add up decodes to `nil`.
enum CacheEntryCoding {
    /// The layout this code writes and reads.
    static let version: UInt16 = 1

    static func encode(_ entry: CachedResponse) -> Data? {
        var metadata = entry
        metadata.body = Data()
        guard let json = try? JSONEncoder().encode(metadata), json.count <= UInt32.max else { return nil }
        var data = Data(capacity: 4 + json.count + entry.body.count)
        withUnsafeBytes(of: UInt32(json.count).bigEndian) { data.append(contentsOf: $0) }
        data.append(json)
        data.append(entry.body)
        return data
    }

    static func decode(_ stored: (contentVersion: UInt16, payload: Data)) -> CachedResponse? {
        let payload = stored.payload
        guard stored.contentVersion == version, payload.count >= 4 else { return nil }
        let length = payload.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard length <= payload.count - 4 else { return nil }
        let start = payload.startIndex + 4
        guard
            var entry = try? JSONDecoder().decode(CachedResponse.self, from: payload[start..<start + length])
        else { return nil }
        // A copy indexed from zero, as any reply's body.
        entry.body = Data(payload[(start + length)...])
        return entry
    }
}
