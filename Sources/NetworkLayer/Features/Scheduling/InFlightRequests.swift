import Foundation

/// Work under way that later askers wait for rather than start again: per key, one flight (a shared
/// send, a token refresh) and its waiters, each told its outcome once, in the order they joined.
///
/// A value, kept under its owner's lock, so that the owner decides with its own state whether to join or
/// to start (``BearerTokenAuthenticator`` looks at its token first); what it returns (waiters, a cancel)
/// runs after that lock. ``InFlightRequests`` is the form with a lock of its own.
struct Flights<Key: Hashable & Sendable, Outcome: Sendable>: Sendable {
    typealias Waiter = @Sendable (Outcome) -> Void

    /// A waiter's place: its flight, and itself (the first waiter's number is its flight's).
    struct Seat: Sendable {
        let flight: Int
        let waiter: Int
        /// Whether this waiter started the flight: its caller starts the work.
        var isFirst: Bool { flight == waiter }
    }

    private struct Flight {
        let id: Int
        var waiters: [Int: Waiter]
        /// Set once the work has started, before the first waiter can leave (its leave is returned after).
        var cancel: (@Sendable () -> Void)?
        /// What a waiter that leaves is told of the work so far, read after the lock (and after the cancel
        /// when it was the last); its starter's.
        let sofar: (@Sendable () -> Outcome)?
    }

    private var flights: [Key: Flight] = [:]
    private var lastID = 0

    /// The flights under way.
    var count: Int { flights.count }

    /// The waiters of every flight under way.
    var waiterCount: Int { flights.values.reduce(0) { $0 + $1.waiters.count } }

    /// Adds `waiter` to the flight for `key`, or starts one (then ``Seat/isFirst``) that tells `sofar` to a
    /// waiter that leaves.
    mutating func join(_ key: Key, _ waiter: @escaping Waiter, sofar: (@Sendable () -> Outcome)? = nil)
        -> Seat
    {
        lastID += 1
        // Mutated in place (`?.`), so the waiters aren't copied.
        if let id = flights[key]?.id {
            flights[key]?.waiters[lastID] = waiter
            return Seat(flight: id, waiter: lastID)
        }
        flights[key] = Flight(id: lastID, waiters: [lastID: waiter], sofar: sofar)
        return Seat(flight: lastID, waiter: lastID)
    }

    /// Keeps how `flight` is cancelled when its last waiter leaves, unless it ended already.
    mutating func setCancel(_ cancel: @escaping @Sendable () -> Void, key: Key, flight: Int) {
        if flights[key]?.id == flight { flights[key]?.cancel = cancel }
    }

    /// Ends the flight for `key` (only if it is `flight`, when one is named: a late outcome of an older
    /// one ends nothing).
    ///
    /// - Returns: Its waiters in the order they joined, to tell after the lock; `nil` when none ended.
    mutating func land(_ key: Key, flight: Int? = nil) -> [Waiter]? {
        guard let current = flights[key], flight.map({ $0 == current.id }) ?? true else { return nil }
        flights[key] = nil
        // Most flights have one waiter: no sort, one array.
        if current.waiters.count == 1, let only = current.waiters.first { return [only.value] }
        return current.waiters.sorted { $0.key < $1.key }.map(\.value)
    }

    /// Takes the waiter at `seat` out of its flight, which ends when it was the last.
    ///
    /// - Returns: Whether it was still waiting, and then the flight's cancel if it ended, and what the waiter
    ///   is told of it, to run after the lock, in that order.
    mutating func leave(_ key: Key, _ seat: Seat) -> (
        left: Bool, cancel: (@Sendable () -> Void)?, sofar: (@Sendable () -> Outcome)?
    ) {
        guard let flight = flights[key], flight.id == seat.flight,
            flights[key]?.waiters.removeValue(forKey: seat.waiter) != nil
        else { return (false, nil, nil) }
        guard flights[key]?.waiters.isEmpty == true else { return (true, nil, flight.sofar) }
        return (true, flights.removeValue(forKey: key)?.cancel, flight.sofar)
    }
}

/// Identical requests in flight share one send: the first starts it, later ones wait. Each waiter is
/// told once (with how many waiters it served), one that leaves never; the send is cancelled when the last
/// waiter leaves.
final class InFlightRequests<Key: Hashable & Sendable, Result: Sendable>: Sendable {
    // Never held while a send starts, is cancelled or reports.
    private let state = Locked(Flights<Key, (Result, callers: Int)>())

    /// The number of sends under way, for tests.
    var count: Int { state.withLock(\.count) }

    /// The number of waiters of every send under way, for tests.
    var waiterCount: Int { state.withLock(\.waiterCount) }

    /// Joins the send for `key`, started by `start` unless one is under way; returns what leaves the flight.
    /// `onLeave` runs when that leaves before the result came, instead of `completion`, which is told the
    /// result and how many waiters it served; `onLeave` is told what the send's starter gave as `sofar`,
    /// read once the send is cancelled when this was its last waiter.
    func join(
        _ key: Key, completion: @escaping @Sendable (Result, _ callers: Int) -> Void,
        onLeave: (@Sendable (_ sofar: Result?) -> Void)? = nil, sofar: (@Sendable () -> Result)? = nil,
        start: (@escaping @Sendable (Result) -> Void) -> @Sendable () -> Void
    ) -> @Sendable () -> Void {
        let told = sofar.map { sofar in { @Sendable () -> (Result, callers: Int) in (sofar(), 1) } }
        let seat = state.withLock { $0.join(key, completion, sofar: told) }
        let state = state
        if seat.isFirst {
            let cancel = start { result in
                let waiters = state.withLock { $0.land(key, flight: seat.flight) } ?? []
                for waiter in waiters { waiter((result, waiters.count)) }
            }
            // Unless it finished inside `start`.
            state.withLock { $0.setCancel(cancel, key: key, flight: seat.flight) }
        }
        return {
            let (left, cancel, sofar) = state.withLock { $0.leave(key, seat) }
            cancel?()
            if left { onLeave?(sofar.map { $0().0 }) }
        }
    }
}
