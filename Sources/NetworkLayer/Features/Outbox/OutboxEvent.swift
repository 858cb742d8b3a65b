import Foundation

/// What an ``Outbox`` tells its observers.
public enum OutboxEvent: Sendable {
    /// How many items wait, dead letters included, and how many of them are dead letters: for a screen's
    /// "3 changes waiting to sync". Sent to each new observer first, then on every change.
    case count(waiting: Int, deadLetters: Int)
    /// The server accepted an item (2xx); it is gone from the outbox.
    case delivered(OutboxItem, NetworkResponse<Data>)
    /// An item became a dead letter: its queue waits until the app retries or removes it.
    case deadLettered(OutboxItem, OutboxError)
}
