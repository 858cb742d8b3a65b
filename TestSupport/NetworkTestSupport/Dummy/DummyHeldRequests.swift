import Foundation

/// The requests a ``DummyNetworkLayer`` holds, and the tasks waiting in
/// ``DummyNetworkLayer/nextPendingRequest(timeout:)`` for one. Only touched under the layer's lock; a
/// waiter it hands out is resumed after the lock is released.
struct DummyHeldRequests {
    typealias Waiter = CheckedContinuation<DummyPendingRequest?, Never>

    /// Not yet released or cancelled, in the order they were held.
    private(set) var pending: [DummyPendingRequest] = []
    /// The pending requests `nextPendingRequest` has not returned yet, oldest first.
    private var untaken: [DummyPendingRequest] = []
    /// The tasks waiting for a request to be held, oldest first.
    private var waiters: [(id: UInt64, continuation: Waiter)] = []
    private var lastWaiterID: UInt64 = 0

    /// Holds `request`. Returns the waiter it is for (the oldest), to resume with it.
    mutating func hold(_ request: DummyPendingRequest) -> Waiter? {
        pending.append(request)
        guard !waiters.isEmpty else {
            untaken.append(request)
            return nil
        }
        return waiters.removeFirst().continuation
    }

    /// `request` was released or cancelled: no one takes it any more.
    mutating func remove(_ request: DummyPendingRequest) {
        pending.removeAll { $0 === request }
        untaken.removeAll { $0 === request }
    }

    /// An identity for a waiter, taken before it waits so a cancel can find it.
    mutating func makeWaiterID() -> UInt64 {
        lastWaiterID += 1
        return lastWaiterID
    }

    /// The oldest request not yet taken; when there is none, `continuation` waits for the next one held,
    /// unless the waiting task is already cancelled (then `nil` is the answer at once).
    mutating func take(orWait continuation: Waiter, id: UInt64) -> DummyPendingRequest?? {
        if !untaken.isEmpty { return .some(untaken.removeFirst()) }
        if Task.isCancelled { return .some(nil) }
        waiters.append((id, continuation))
        return nil
    }

    /// Stops waiter `id` from waiting: it timed out or its task was cancelled. Returns it to resume, or
    /// `nil` when a held request resumed it already.
    mutating func removeWaiter(_ id: UInt64) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index).continuation
    }
}
