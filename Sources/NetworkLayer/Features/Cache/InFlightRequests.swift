import Foundation

/// Identical requests in flight share one send: the first starts it, later ones wait. Each waiter is
/// told once, one that leaves never; the send is cancelled when the last waiter leaves.
final class InFlightRequests<Result: Sendable>: Sendable {
    // Touched only under `state`'s lock, which is never held while a send starts, is cancelled or reports.
    private final class Flight: @unchecked Sendable {
        var waiters: [Int: @Sendable (Result) -> Void] = [:]
        var cancel: (@Sendable () -> Void)?
        var isOver = false
    }

    private struct State {
        var flights: [String: Flight] = [:]
        var nextWaiter = 0
    }

    private let state = Locked(State())

    /// The number of sends under way, for tests.
    var count: Int { state.withLock { $0.flights.count } }

    /// Joins the send for `key`, starting it with `start` (which gets the result callback and returns the
    /// cancel action) if none is under way. Returns what leaves the flight.
    func join(
        _ key: String, completion: @escaping @Sendable (Result) -> Void,
        start: (@escaping @Sendable (Result) -> Void) -> @Sendable () -> Void
    ) -> @Sendable () -> Void {
        let (flight, id, isFirst) = state.withLock { state in
            state.nextWaiter += 1
            let existing = state.flights[key]
            let flight = existing ?? Flight()
            state.flights[key] = flight
            flight.waiters[state.nextWaiter] = completion
            return (flight, state.nextWaiter, existing == nil)
        }
        let state = state
        if isFirst {
            let cancel = start { result in
                let waiters = state.withLock { state in
                    flight.isOver = true
                    flight.cancel = nil
                    if state.flights[key] === flight { state.flights[key] = nil }
                    defer { flight.waiters = [:] }
                    return flight.waiters
                }
                for waiter in waiters.values { waiter(result) }
            }
            let abandoned = state.withLock { _ in
                guard !flight.isOver else { return false }
                flight.cancel = cancel
                return flight.waiters.isEmpty
            }
            if abandoned { cancel() }
        }
        return {
            let cancel: (@Sendable () -> Void)? = state.withLock { state in
                guard flight.waiters.removeValue(forKey: id) != nil, flight.waiters.isEmpty, !flight.isOver
                else { return nil }
                if state.flights[key] === flight { state.flights[key] = nil }
                return flight.cancel
            }
            cancel?()
        }
    }
}
