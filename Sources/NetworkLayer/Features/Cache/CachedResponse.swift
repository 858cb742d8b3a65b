import Foundation

/// A stored reply with what RFC 9111 needs to judge it later: when it was asked for and received, and
/// the request headers it varies on.
struct CachedResponse: Sendable, Equatable {
    /// The request's URL, the entry's identity together with ``partition``.
    var url: URL
    var statusCode: Int
    var headers: [String: String]
    var body: Data
    /// When the request that brought this reply was sent (`request_time` in RFC 9111 §4.2.3).
    var requestTime: Date
    /// When the reply arrived (`response_time`).
    var responseTime: Date
    /// The keyed fingerprint (``CacheKeying``) of each header the reply's `Vary` names, lower-cased name
    /// to fingerprint; a header the request didn't send is absent, and so is a credential header in an
    /// account's partition (the account stands for it). Keyed fingerprints, not values: a
    /// `Vary: Authorization` must not write a token to disk, nor a hash to test guesses of it against.
    var varying: [String: String]
    /// Whose entry this is: everyone's, some credentials' or an account's.
    var partition: CachePartition

    var fields: HeaderFields { HeaderFields(headers) }

    var key: CacheKey { CacheKey(url: url, partition: partition) }

    /// What the entry costs in memory or on disk, roughly: the body and the headers.
    var cost: Int {
        body.count + headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count } + 256
    }
}

/// An entry's identity: the request URL (without its fragment) and the partition it was stored in.
/// Only `GET` replies are stored, so the method is implied.
struct CacheKey: Hashable, Sendable {
    var url: String
    var partition: CachePartition

    init(url: URL, partition: CachePartition) {
        self.url = CacheKey.normalized(url)
        self.partition = partition
    }

    static func normalized(_ url: URL) -> String {
        // The usual case, without parsing the URL again.
        if url.fragment == nil { return url.absoluteString }
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return url.absoluteString
        }
        components.fragment = nil
        return components.string ?? url.absoluteString
    }

    /// The entry's file name: the URL's hash first, so that every entry for a URL can be found by prefix,
    /// then the partition's tag, so that every entry of an account can be found by suffix. The URL is in
    /// the entry in clear anyway; the partition's fingerprint is keyed.
    var fileName: String { "\(Fingerprint.hex(url))-\(partition.tag)" }

    static func filePrefix(for url: URL) -> String { "\(Fingerprint.hex(normalized(url)))-" }
}

/// A 64-bit FNV-1a hash: URL file names and the disk entries' checksums. Not a cryptographic hash: it
/// tells entries apart and detects damage, and never hashes a credential (``CacheKeying`` does that).
enum Fingerprint {
    static func hash(_ bytes: some Sequence<UInt8>, into seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        var hash = seed
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }

    static func hash(_ data: Data, into seed: UInt64 = 0xcbf2_9ce4_8422_2325) -> UInt64 {
        data.withUnsafeBytes { hash($0, into: seed) }
    }

    static func hex(_ text: String) -> String {
        let value = hash(text.utf8)
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
