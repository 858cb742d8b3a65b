import Foundation

/// An outbox's items in memory and where its delivery stands. Changed only on the outbox's queue (the
/// lock lets the public getters read it from anywhere).
struct OutboxState {
    var items: [OutboxItem]
    private(set) var nextSequence: UInt64
    /// The first item's attempt on its way and the wait after it, one call: cancelling it stops either.
    var inFlight: (id: UUID, call: ComposedCall, waiting: Bool)?
    /// Failed attempts of the first item in a row, in this process: the backoff's exponent.
    var failures = 0
    /// Set when the outbox is gone: nothing more is sent.
    private(set) var stopped = false
    /// Who is told each event, in order, on the queue each picked. The handler is a plain closure, as a
    /// layer's handlers are, so a presenter that isn't `Sendable` can observe: it runs on its queue alone.
    var observers: [UUID: (queue: DispatchQueue, handler: UncheckedSendable<(OutboxEvent) -> Void>)] = [:]

    /// How many items wait, and how many of them are dead letters.
    var count: OutboxEvent {
        .count(waiting: items.count, deadLetters: items.count { $0.deadLetter != nil })
    }

    /// Sends `event` to every observer; the handlers run later, on their queues, never under the lock.
    func send(_ event: OutboxEvent) {
        for (queue, handler) in observers.values {
            queue.async { handler.value(event) }
        }
    }

    /// Takes the next sequence for a new item.
    mutating func takeSequence() -> UInt64 {
        defer { nextSequence += 1 }
        return nextSequence
    }

    /// The first item, when it may be sent now: no attempt or wait under way.
    var next: OutboxItem? {
        guard !stopped, inFlight == nil else { return nil }
        return items.first
    }

    /// Removes the item; returns it, and its attempt or wait to cancel outside the lock (the backoff
    /// belongs to the first item: the next one starts afresh).
    mutating func remove(_ id: UUID) -> (item: OutboxItem, call: ComposedCall?)? {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return nil }
        let item = items.remove(at: index)
        if index == 0 { failures = 0 }
        return (item, inFlight?.id == id ? end() : nil)
    }

    /// Ends the attempt or wait under way if it is `call` (any when `nil`); returns it, to end outside the
    /// lock.
    mutating func end(_ call: ComposedCall? = nil) -> ComposedCall? {
        guard let current = inFlight?.call, call.map({ $0 === current }) ?? true else { return nil }
        inFlight = nil
        return current
    }

    /// Clears the item's dead letter; returns it.
    mutating func revive(_ id: UUID) -> OutboxItem? {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return nil }
        items[index].deadLetter = nil
        if index == 0 { failures = 0 }
        return items[index]
    }

    /// Replaces the stored state of the item (an attempt counted, a dead letter).
    mutating func update(_ item: OutboxItem) {
        guard let index = items.firstIndex(where: { $0.id == item.id }) else { return }
        items[index] = item
    }

    /// Ends the wait under way, not an attempt; returns its call, to cancel outside the lock.
    mutating func endWait() -> ComposedCall? {
        inFlight?.waiting == true ? end() : nil
    }

    /// Stops delivery; returns the attempt or wait to cancel outside the lock.
    mutating func stop() -> ComposedCall? {
        stopped = true
        return end()
    }
}
