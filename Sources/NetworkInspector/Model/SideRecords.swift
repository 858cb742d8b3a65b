/// A stream (server-sent events, lines or chunks) as the page lists it (the contract's Stream object).
struct StreamRecord: Encodable, Sendable {
    let id: String
    let url: String
    let start: Double
    @Nullable var end: Double?
    var events = 0
    /// The last event's text, cut short; `nil` until one arrives.
    @Nullable var last: String?
    @Nullable var error: String?
}

/// A download or an upload as the page lists it (the contract's Transfer object).
struct TransferRecord: Encodable, Sendable {
    let id: String
    /// `download` or `upload`.
    let kind: String
    let url: String
    var bytes: Int
    @Nullable var total: Int?
    /// A resumable upload's offset the server confirmed.
    @Nullable var offset: Int?
    var state: String
}

/// An outbox's queue as the page shows it (the contract's Outbox object).
struct OutboxRecord: Encodable, Sendable {
    struct Item: Encodable, Sendable {
        let id: String
        let method: String
        let url: String
        /// `waiting`, `sending` or `deadLetter`.
        let state: String
        let attempts: Int
    }

    let waiting: Int
    let sending: Int
    let deadLetters: Int
    let items: [Item]
}

/// Everything the inspector holds (`/api/snapshot`, and the page's first render).
struct Snapshot: Encodable, Sendable {
    let now: Double
    let maxRequests: Int
    let maxBodyBytes: Int
    /// Requests evicted so far, to keep the last ``maxRequests``.
    let dropped: Int
    let requests: [RequestRecord]
    let streams: [StreamRecord]
    let transfers: [TransferRecord]
    @Nullable var outbox: OutboxRecord?
}
