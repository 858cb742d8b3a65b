import Foundation

/// Identical requests in flight at once share one transport send: the first starts it, later ones wait
/// for its result. Each waiter is told once; a waiter that leaves is never told, and the send is
/// cancelled only when the last waiter leaves.
final class InFlightRequests<Result: Sendable>: @unchecked Sendable {
    // Guarded by `lock`, which is never held while a send starts, is cancelled or reports.
    private let lock = NSLock()
    private var flights: [String: Flight] = [:]
    private var nextWaiter = 0

    // Guarded by the owner's lock.
    private final class Flight: @unchecked Sendable {
        var waiters: [Int: @Sendable (Result) -> Void] = [:]
        var cancel: (@Sendable () -> Void)?
        var isOver = false
    }

    /// The number of sends under way, for tests.
    var count: Int { lock.withLock { flights.count } }

    /// Joins the send for `key`, starting it with `start` if none is under way. `start` gets the closure
    /// to call with the result and returns the send's cancel action.
    ///
    /// - Returns: What leaves the flight: `completion` won't be called after it.
    func join(
        _ key: String, completion: @escaping @Sendable (Result) -> Void,
        start: (@escaping @Sendable (Result) -> Void) -> @Sendable () -> Void
    ) -> @Sendable () -> Void {
        let (flight, id, isFirst) = lock.withLock {
            nextWaiter += 1
            let existing = flights[key]
            let flight = existing ?? Flight()
            flights[key] = flight
            flight.waiters[nextWaiter] = completion
            return (flight, nextWaiter, existing == nil)
        }
        if isFirst {
            let cancel = start { [self] result in
                let waiters = lock.withLock {
                    flight.isOver = true
                    flight.cancel = nil
                    if flights[key] === flight { flights[key] = nil }
                    defer { flight.waiters = [:] }
                    return flight.waiters
                }
                for waiter in waiters.values { waiter(result) }
            }
            let abandoned = lock.withLock {
                guard !flight.isOver else { return false }
                flight.cancel = cancel
                return flight.waiters.isEmpty
            }
            if abandoned { cancel() }
        }
        return { [self] in
            let cancel: (@Sendable () -> Void)? = lock.withLock {
                guard flight.waiters.removeValue(forKey: id) != nil, flight.waiters.isEmpty, !flight.isOver
                else { return nil }
                if flights[key] === flight { flights[key] = nil }
                return flight.cancel
            }
            cancel?()
        }
    }
}
