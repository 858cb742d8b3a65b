import Foundation

/// A write waiting in an ``Outbox``, as stored on disk: what is sent, and how it has gone so far.
public struct OutboxItem: Sendable, Equatable, Identifiable, Codable {
    /// The identifier ``Outbox/enqueue(_:)`` returned.
    public let id: UUID
    /// The item's place in its queue: items go out in this order.
    package let sequence: UInt64
    /// What the write is, as the app named it, for routing its outcome.
    public let kind: String
    /// Who the write is for, as resolved when it was enqueued; `nil` for anyone: chosen with
    /// ``OutboxRequest/Account/any``, or stored without an account by an earlier version, where leaving
    /// `account:` out meant anyone: such items load as they were written, for anyone.
    public let account: String?
    /// The HTTP method.
    public let method: String
    /// The path (resolved against the delivering layer's base URL) or absolute URL.
    public let urlString: String
    /// The stored headers, with `Content-Type`; never a credential (``Outbox/enqueue(_:)`` refuses them).
    public let headers: [String: String]
    /// The encoded body.
    public let body: Data
    /// Query parameters.
    public let query: [String: String]
    /// The `Idempotency-Key` sent with every attempt: the server acts on it once.
    public let idempotencyKey: String
    /// When the item was enqueued, on the layer's clock.
    public let enqueuedAt: Date
    /// When the item expires, or `nil`.
    public let expiresAt: Date?
    /// Attempts made so far: in this process, and in earlier ones as far as they were stored (an item is
    /// stored again when it becomes a dead letter or is retried, not after each attempt).
    public internal(set) var attempts: Int
    /// Why the item stopped, when it is a dead letter: it waits until the app retries or removes it.
    public internal(set) var deadLetter: OutboxDeadLetter?

    /// The bytes the item takes on disk, near enough: for the outbox's size limit.
    var storedSize: Int {
        let fields = [headers, query].joined().reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        return body.count + urlString.utf8.count + fields
    }
}

/// Why an ``OutboxItem`` became a dead letter, as stored with it (so it survives a relaunch).
public struct OutboxDeadLetter: Sendable, Equatable, Codable {
    /// The server's status, when it rejected the item (a 4xx).
    public let statusCode: Int?
    /// The server's reply body, when it rejected the item: its reason, for the app to show. Its first
    /// 64 KiB only: the item is stored with it, and a larger reply would make the item's file too large to
    /// read at the next launch.
    public let body: Data
    /// The most bytes of the reply body kept.
    static let largestBody = 64 * 1024
    /// A sentence for logs and screens.
    public let message: String
}
