import Foundation

/// Which of a layer's requests may reach each origin now: at most the budget in flight, the waiting ones
/// started highest priority first (in arrival order within one), and none that waits for rate limits while
/// the server's pause holds the origin. One lock guards every origin; it is never held while a request
/// starts, is withdrawn or reports.
final class OriginScheduler: Sendable {
    /// A request waiting for its origin.
    private struct Waiter {
        let id: Int
        var priority: RequestPriority
        let counts: Bool
        let waitsForRateLimit: Bool
        /// Told, when the request goes, how long of its wait (nanoseconds) the origin was held.
        let start: @Sendable (_ rateLimited: UInt64) -> Void
        /// Since when the origin holds this waiter, while it does; the holds it waited out before.
        var heldSince: DispatchTime?
        var rateLimited: UInt64 = 0

        /// Starts or ends the time held, as the origin is held or not `now`.
        mutating func note(held: Bool, now: DispatchTime) {
            guard waitsForRateLimit else { return }
            if !held, let since = heldSince {
                rateLimited += now.uptimeNanoseconds - min(since.uptimeNanoseconds, now.uptimeNanoseconds)
            }
            heldSince = held ? heldSince ?? now : nil
        }
    }

    private struct OriginState {
        /// Requests in flight that count against the budget.
        var running = 0
        var waiting: [Waiter] = []
        /// Until when the server asked for nothing, on the clock's monotonic time.
        var closedUntil: DispatchTime?
        /// The reopening armed, if any: only while someone waits for it, so a pause nobody waits for leaves
        /// nothing on the clock.
        var reopensAt: DispatchTime?
        /// When the origin was last asked anything during a hold: the reply asking the pause, or a probe.
        var lastContact: DispatchTime?

        var isIdle: Bool { running == 0 && waiting.isEmpty && closedUntil == nil }

        /// When to arm a reopening now: someone waits for the pause, and none is armed for its end.
        mutating func reopening() -> DispatchTime? {
            guard let closedUntil, reopensAt != closedUntil, waiting.contains(where: \.waitsForRateLimit)
            else {
                return nil
            }
            reopensAt = closedUntil
            return closedUntil
        }

        /// Whether a request of `priority` may go now as the hold's probe: the user waits for it, the hold
        /// has more than a probe interval left, and nobody asked the origin anything for that long.
        func admitsProbe(of priority: RequestPriority, now: DispatchTime) -> Bool {
            let interval = OriginScheduler.probeInterval
            guard priority >= .userInitiated, let closedUntil, closedUntil > now + interval else {
                return false
            }
            return lastContact.map { now >= $0 + interval } ?? true
        }

        /// In how many seconds the held origin opens, when that is past `deadline` and no probe may go now.
        func refusal(deadline: DispatchTime?, priority: RequestPriority, now: DispatchTime) -> TimeInterval? {
            guard let deadline, let held = closedUntil, held > now, held > deadline,
                !admitsProbe(of: priority, now: now)
            else { return nil }
            return OriginScheduler.seconds(from: now, to: held)
        }

        /// Ends the hold; its last contact goes too, as it counts only during a hold (each sets it anew).
        mutating func lift() {
            closedUntil = nil
            reopensAt = nil
            lastContact = nil
        }
    }

    private struct State {
        var origins: [Origin: OriginState] = [:]
        var lastID = 0
    }

    /// What a request finds when it reaches its origin's gate.
    enum Entry: Equatable {
        /// It goes now.
        case admitted
        /// It waits; this identifies it to ``withdraw(_:from:)`` and ``reprioritize(_:in:to:)``.
        case waiting(Int)
        /// The origin is held past the request's deadline: it fails at once.
        case refused(until: Date)
        /// It goes now as the hold's probe (see ``OriginState/admitsProbe(of:now:)``): a success lifts
        /// the hold.
        case probing
    }

    /// How often, at most, a request the user waits for probes a held origin, in seconds; a hold with no
    /// more than this left is waited out. Why 30 s: a user who taps again after a wrong or hostile hold
    /// gets an answer within half a minute, and a server that meant its pause gets at most two requests a
    /// minute from a client whose user keeps asking.
    static let probeInterval: TimeInterval = 30

    private let state = Locked(State())
    let clock: any NetworkClock
    /// The layer's budget per origin; `nil` for no limit.
    let budget: Int?
    /// The longest hold a reply sets (``RequestScheduling/maximumRateLimitWait``).
    let longestHold: TimeInterval

    init(clock: any NetworkClock, budget: Int?, longestHold: TimeInterval) {
        self.clock = clock
        self.budget = budget
        // Added to a monotonic time: at most a year keeps that arithmetic far from its limits.
        self.longestHold = longestHold.isNaN ? 0 : min(max(0, longestHold), 365 * 86_400)
    }

    /// Requests counted or waiting: 0 once every request has ended. Tests read it.
    var count: Int {
        state.withLock { state in state.origins.values.reduce(0) { $0 + $1.running + $1.waiting.count } }
    }

    /// Whether nothing is counted, waiting or held anywhere: then a request that doesn't count needs no
    /// bookkeeping at all. Forgets pauses that are over.
    var isIdle: Bool {
        let now = clock.now
        return state.withLock { state in
            // Only pauses that are over can go: anything else keeps the origin.
            for (origin, entry) in state.origins
            where entry.running == 0 && entry.waiting.isEmpty && (entry.closedUntil ?? now) <= now {
                state.origins[origin] = nil
            }
            return state.origins.isEmpty
        }
    }

    /// A request with `deadline` (monotonic) and `priority` that waits for rate limits can't wait for
    /// `origin`: when it is held past that deadline, and the request may not probe it, the time it opens.
    func refusal(_ origin: Origin, deadline: DispatchTime?, priority: RequestPriority) -> Date? {
        let now = clock.now
        let seconds = state.withLock {
            $0.origins[origin]?.refusal(deadline: deadline, priority: priority, now: now)
        }
        return seconds.map { clock.date.addingTimeInterval($0) }
    }

    /// Lets a request in, or queues it: `start` then runs once, outside the lock, when its turn comes, told
    /// how long of the wait (nanoseconds) a rate limit held the origin. A request the user waits for may go
    /// at once as the hold's probe (``Entry/probing``).
    func enter(
        _ origin: Origin, counts: Bool, waitsForRateLimit: Bool, priority: RequestPriority,
        deadline: DispatchTime?, start: @escaping @Sendable (_ rateLimited: UInt64) -> Void
    ) -> Entry {
        let (now, date) = (clock.now, clock.date)
        var released: [Waiter] = []
        let (entered, reopening) = state.withLock { state -> (Entry, DispatchTime?) in
            var entry = state.origins[origin] ?? OriginState()
            defer { state.origins[origin] = entry.isIdle ? nil : entry }
            // A hold over before its timer ran: whoever waited for it goes first, ahead of this newcomer.
            if let closed = entry.closedUntil, closed <= now { released = admit(&entry, now: now) }
            let full = counts && budget.map { entry.running >= $0 } ?? false
            let held = waitsForRateLimit && entry.closedUntil != nil
            // Held, it may go only as the hold's probe.
            if !full, !held || entry.admitsProbe(of: priority, now: now) {
                if held { entry.lastContact = now }
                if counts { entry.running += 1 }
                return (held ? .probing : .admitted, nil)
            }
            if waitsForRateLimit, let opens = entry.refusal(deadline: deadline, priority: priority, now: now)
            {
                return (.refused(until: date.addingTimeInterval(opens)), nil)
            }
            state.lastID += 1
            entry.waiting.append(
                Waiter(
                    id: state.lastID, priority: priority, counts: counts,
                    waitsForRateLimit: waitsForRateLimit,
                    start: start, heldSince: held ? now : nil))
            return (.waiting(state.lastID), entry.reopening())
        }
        if let reopening { reopen(origin, at: reopening) }
        for waiter in released { waiter.start(waiter.rateLimited) }
        return entered
    }

    /// Starts whoever waits for `origin` once its pause, ending at `time`, is over: when the clock says the
    /// wait is (a test double's clock, on which every wait is over at once, says so at once).
    private func reopen(_ origin: Origin, at time: DispatchTime) {
        let delay = Self.seconds(from: clock.now, to: max(time, clock.now))
        clock.run(after: delay, on: Queues.work) { [weak self] in
            self?.finished(origin, counted: false, pause: nil, pauseOver: time)
        }
    }

    /// A request that was admitted (or started from the queue) ended; `pause` is the wait its reply asks
    /// of every request to the origin, if any, which holds it for at most ``longestHold``.
    ///
    /// - Parameter pauseOver: A pause ending then, or before, is over; `.distantFuture`: whenever it was to
    ///   end (a probe succeeded, or the app lifted the hold).
    func finished(_ origin: Origin, counted: Bool, pause: TimeInterval?, pauseOver: DispatchTime? = nil) {
        let now = clock.now
        let (starts, reopening) = state.withLock { state in
            var entry = state.origins[origin] ?? OriginState()
            if let pauseOver, let closed = entry.closedUntil, closed <= pauseOver { entry.lift() }
            if counted { entry.running = max(0, entry.running - 1) }
            if let pause, longestHold > 0 {
                let until = now + min(pause, longestHold)
                entry.closedUntil = max(entry.closedUntil ?? until, until)
                entry.lastContact = now
            }
            let starts = admit(&entry, now: now)
            if entry.reopensAt.map({ $0 <= now }) ?? false { entry.reopensAt = nil }
            let reopening = entry.reopening()
            state.origins[origin] = entry.isIdle ? nil : entry
            return (starts, reopening)
        }
        if let reopening { reopen(origin, at: reopening) }
        for waiter in starts { waiter.start(waiter.rateLimited) }
    }

    /// Ends the holds of `origin`, or of every origin when `nil`: whoever waits for them goes, as the
    /// budget allows.
    func lift(_ origin: Origin?) {
        let held = origin.map { [$0] } ?? state.withLock { Array($0.origins.keys) }
        for origin in held { finished(origin, counted: false, pause: nil, pauseOver: .distantFuture) }
    }

    /// Takes a waiting request out of the queue.
    ///
    /// - Returns: How long of its wait (nanoseconds) the origin was held; `nil` when it isn't waiting any
    ///   more (it has started).
    func withdraw(_ id: Int, from origin: Origin) -> UInt64? {
        let now = clock.now
        return state.withLock { state in
            guard let index = state.origins[origin]?.waiting.firstIndex(where: { $0.id == id }) else {
                return nil
            }
            var waiter = state.origins[origin]?.waiting.remove(at: index)
            waiter?.note(held: false, now: now)
            if state.origins[origin]?.isIdle == true { state.origins[origin] = nil }
            return waiter?.rateLimited
        }
    }

    /// A waiting request's new priority.
    func reprioritize(_ id: Int, in origin: Origin, to priority: RequestPriority) {
        state.withLock { state in
            if let index = state.origins[origin]?.waiting.firstIndex(where: { $0.id == id }) {
                state.origins[origin]?.waiting[index].priority = priority
            }
        }
    }

    /// Takes out of the queue, best first, every waiter that may go now, counting those that count.
    private func admit(_ entry: inout OriginState, now: DispatchTime) -> [Waiter] {
        if let closed = entry.closedUntil, closed <= now { entry.closedUntil = nil }
        // A hold begun or ended since the waiters last looked: their time held starts or ends now.
        for index in entry.waiting.indices {
            entry.waiting[index].note(held: entry.closedUntil != nil, now: now)
        }
        var starts: [Waiter] = []
        while true {
            let (isOpen, running) = (entry.closedUntil == nil, entry.running)
            let mayStart = { (waiter: Waiter) in
                (isOpen || !waiter.waitsForRateLimit)
                    && (!waiter.counts || self.budget.map { running < $0 } ?? true)
            }
            // Highest priority first; within one priority, the earliest (lowest id).
            guard
                let best = entry.waiting.indices.filter({ mayStart(entry.waiting[$0]) }).max(by: {
                    let (a, b) = (entry.waiting[$0], entry.waiting[$1])
                    return a.priority == b.priority ? a.id > b.id : a.priority < b.priority
                })
            else { return starts }
            let waiter = entry.waiting.remove(at: best)
            if waiter.counts { entry.running += 1 }
            starts.append(waiter)
        }
    }

    private static func seconds(from start: DispatchTime, to end: DispatchTime) -> TimeInterval {
        TimeInterval(end.uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}
