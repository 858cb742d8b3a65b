import Foundation

/// An outbox's items in memory and where its delivery stands. Changed only on the outbox's queue (the
/// lock lets the public getters read it from anywhere).
struct OutboxState {
    private(set) var items: [OutboxItem]
    private(set) var nextSequence: UInt64
    /// The attempt on its way: only ever the first item's.
    var inFlight: (id: UUID, task: NetworkTask?)?
    /// The wait before the next attempt, and its token: a wait that fired after being replaced ends
    /// nothing.
    var wait: (token: UUID, timer: any ClockTimer)?
    /// Failed attempts of the first item in a row, in this process: the backoff's exponent.
    var failures = 0
    /// Set when the outbox is gone: nothing more is sent.
    private(set) var stopped = false

    init(items: [OutboxItem], nextSequence: UInt64) {
        self.items = items
        self.nextSequence = nextSequence
    }

    /// Takes the next sequence for a new item.
    mutating func takeSequence() -> UInt64 {
        defer { nextSequence += 1 }
        return nextSequence
    }

    mutating func append(_ item: OutboxItem) {
        items.append(item)
    }

    /// The first item, when it may be sent now: none in flight, no wait running.
    var next: OutboxItem? {
        guard !stopped, inFlight == nil, wait == nil else { return nil }
        return items.first
    }

    /// Removes the item; returns it, and what to cancel outside the lock: its attempt on its way, and the
    /// wait before its next attempt (the backoff belongs to the first item: the next one starts afresh).
    mutating func remove(_ id: UUID) -> (item: OutboxItem, task: NetworkTask?, wait: (any ClockTimer)?)? {
        guard let index = items.firstIndex(where: { $0.id == id }) else { return nil }
        let item = items.remove(at: index)
        var wait: (any ClockTimer)?
        if index == 0 {
            failures = 0
            wait = endWait()
        }
        guard inFlight?.id == id else { return (item, nil, wait) }
        defer { inFlight = nil }
        return (item, inFlight?.task, wait)
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

    /// Ends the wait; returns its timer, to cancel outside the lock.
    mutating func endWait() -> (any ClockTimer)? {
        defer { wait = nil }
        return wait?.timer
    }

    /// Stops delivery; returns the wait and attempt to cancel outside the lock.
    mutating func stop() -> ((any ClockTimer)?, NetworkTask?) {
        stopped = true
        defer { (wait, inFlight) = (nil, nil) }
        return (wait?.timer, inFlight?.task)
    }
}
