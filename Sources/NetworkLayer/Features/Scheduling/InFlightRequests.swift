import Foundation

/// Identical requests in flight share one send: the first starts it, later ones wait. Each waiter is
/// told once, one that leaves never; the send is cancelled when the last waiter leaves.
final class InFlightRequests<Key: Hashable & Sendable, Result: Sendable>: Sendable {
    /// One send and who waits for it; a value in `state`, so only `state`'s lock guards it.
    private struct Flight {
        let id: Int
        var waiters: [Int: @Sendable (Result) -> Void]
        /// Set once `start` has returned it, before the first waiter can leave (its leave is returned after).
        var cancel: (@Sendable () -> Void)?
    }

    private struct State {
        var flights: [Key: Flight] = [:]
        var lastID = 0
    }

    // Never held while a send starts, is cancelled or reports.
    private let state = Locked(State())

    /// The number of sends under way, for tests.
    var count: Int { state.withLock { $0.flights.count } }

    /// The number of waiters of every send under way, for tests.
    var waiterCount: Int { state.withLock { $0.flights.values.reduce(0) { $0 + $1.waiters.count } } }

    /// Joins the send for `key`, started by `start` unless one is under way; returns what leaves the flight.
    /// `onLeave` runs when that leaves before the result came, instead of `completion`.
    func join(
        _ key: Key, completion: @escaping @Sendable (Result) -> Void,
        onLeave: (@Sendable () -> Void)? = nil,
        start: (@escaping @Sendable (Result) -> Void) -> @Sendable () -> Void
    ) -> @Sendable () -> Void {
        let (flightID, waiterID, isFirst) = state.withLock { state in
            state.lastID += 1
            let waiterID = state.lastID
            // Mutated in place (`?.`), so the waiters aren't copied.
            if let id = state.flights[key]?.id {
                state.flights[key]?.waiters[waiterID] = completion
                return (id, waiterID, false)
            }
            state.flights[key] = Flight(id: waiterID, waiters: [waiterID: completion])
            return (waiterID, waiterID, true)
        }
        let state = state
        if isFirst {
            let cancel = start { result in
                let waiters = state.withLock { state -> [@Sendable (Result) -> Void] in
                    guard let flight = state.flights[key], flight.id == flightID else { return [] }
                    state.flights[key] = nil
                    return Array(flight.waiters.values)
                }
                for waiter in waiters { waiter(result) }
            }
            // Unless it finished inside `start`.
            state.withLock { state in
                if state.flights[key]?.id == flightID { state.flights[key]?.cancel = cancel }
            }
        }
        return {
            let (left, cancel) = state.withLock { state -> (Bool, (@Sendable () -> Void)?) in
                guard state.flights[key]?.id == flightID,
                    state.flights[key]?.waiters.removeValue(forKey: waiterID) != nil
                else { return (false, nil) }
                guard state.flights[key]?.waiters.isEmpty == true else { return (true, nil) }
                return (true, state.flights.removeValue(forKey: key)?.cancel)
            }
            cancel?()
            if left { onLeave?() }
        }
    }
}
