import Foundation

/// A stored reply with what RFC 9111 needs to judge it later: its times and the headers it varies on.
struct CachedResponse: Sendable, Equatable, Codable {
    var url: URL
    var statusCode: Int
    var headers: [String: String]
    var body: Data
    /// `request_time` in RFC 9111 §4.2.3.
    var requestTime: Date
    /// `response_time`.
    var responseTime: Date
    /// The keyed fingerprint of each request header `Vary` names (lower-cased), absent when not sent or a
    /// credential in an account's partition. Keyed, so `Vary: Authorization` writes neither a token nor a
    /// guessable hash to disk.
    var varying: [String: String]
    var partition: CachePartition

    var fields: HeaderFields { HeaderFields(headers) }

    var key: CacheKey { CacheKey(url: url, partition: partition) }

    var cost: Int {
        body.count + headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count } + 256
    }
}

/// An entry's identity: the URL without its fragment, and the partition (only `GET` is stored).
struct CacheKey: Hashable, Sendable {
    var url: String
    var partition: CachePartition

    init(url: URL, partition: CachePartition) {
        self.url = CacheKey.normalized(url)
        self.partition = partition
    }

    /// The fragment is all after the first `#`, which can appear nowhere before it.
    static func normalized(_ url: URL) -> String {
        url.fragment == nil ? url.absoluteString : String(url.absoluteString.prefix { $0 != "#" })
    }

    /// The URL's hash first (all entries for a URL share a prefix), then the partition's tag (all of an
    /// account's share a suffix). The URL is in the entry in clear anyway; the partition is keyed.
    var fileName: String { "\(Self.hex(url))-\(partition.tag)" }

    static func filePrefix(for url: URL) -> String { "\(hex(normalized(url)))-" }

    /// 64 bits of the URL's SHA-256: tells entries apart (a file's entry names its key, so a collision is
    /// a miss); never hashes a credential (``CacheKeying`` does that).
    private static func hex(_ url: String) -> String { SHA256.hex(SHA256.hash(Array(url.utf8)).prefix(8)) }
}
