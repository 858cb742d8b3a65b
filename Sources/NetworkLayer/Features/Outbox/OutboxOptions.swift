import Foundation

/// How an ``Outbox`` stores and delivers its items.
public struct OutboxOptions: Sendable {
    /// What becomes of an item made for an account other than the one the layer is signed in as.
    public enum AccountMismatch: Sendable {
        /// It waits, and its queue with it, until the layer is signed in as its account again (then call
        /// ``Outbox/flush()``).
        case wait
        /// It becomes a dead letter.
        case deadLetter
    }

    /// Whether ``Outbox/enqueue(_:)`` also waits for the device (the item survives a power loss, not only
    /// the process being killed). Off by default: see <doc:OfflineOutbox> for the measured cost.
    public var flushesToDevice = false
    /// The wait before the second attempt, in seconds; each later wait may be twice as long.
    public var initialDelay: TimeInterval = 1
    /// The longest wait between attempts, in seconds, whatever the backoff or `Retry-After` says.
    public var maximumDelay: TimeInterval = 300
    /// Seconds after which an undelivered item becomes a dead letter; `nil`, the default, never.
    public var timeToLive: TimeInterval?
    /// The most items the outbox holds; a further ``Outbox/enqueue(_:)`` fails with ``OutboxError/full``.
    public var maximumItemCount = 10_000
    /// The most bytes of bodies, URLs, queries and headers the outbox holds in all. An item file larger
    /// than twice this and 8 MiB is no item of this outbox's: it is set aside unread.
    public var maximumSize = 50 * 1024 * 1024
    /// What becomes of an item made for another account; ``AccountMismatch/wait`` by default.
    public var accountMismatch = AccountMismatch.wait
    /// A secret kept outside the outbox's folder (the Keychain, say), 32 random bytes per installation,
    /// that authenticates the items (HMAC-SHA256): an item file not written under it, such as one another
    /// program put in the folder to have a request sent with the signed-in user's credentials, is set
    /// aside as damaged (listed in ``Outbox/damagedFiles``) and never sent. `nil`, the default, only
    /// checksums the items: trust them as far as everything that can write the folder. Items written
    /// without a key (or under another) are set aside once a key is given. A key shorter than 16 bytes is
    /// refused: the outbox doesn't open (``OutboxError/writeFailed(_:)`` says why). See <doc:OfflineOutbox>.
    public var recordKey: Data?
    /// Encodes ``RequestBody/json(_:)`` bodies when an item is enqueued; `nil`, the default, uses the layer's
    /// ``NetworkLayer/encoder``, as a request sent at once would.
    public var encoder: JSONEncoder?

    /// The default options: no flush to the device, waits from 1 s to 5 minutes, no expiry.
    public init() {}
}
