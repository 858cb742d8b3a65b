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
        let start: @Sendable () -> Void
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
    }

    private struct State {
        var origins: [Origin: OriginState] = [:]
        var lastID = 0
    }

    /// What a request finds when it reaches its origin's gate.
    enum Entry {
        /// It goes now.
        case admitted
        /// It waits; this identifies it to ``withdraw(_:from:)`` and ``reprioritize(_:in:to:)``.
        case waiting(Int)
        /// The origin is held past the request's deadline: it fails at once.
        case refused(until: Date)
    }

    private let state = Locked(State())
    let clock: any NetworkClock
    /// The layer's budget per origin; `nil` for no limit.
    let budget: Int?

    init(clock: any NetworkClock, budget: Int?) {
        self.clock = clock
        self.budget = budget
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

    /// A request with `deadline` (monotonic) that waits for rate limits can't wait for `origin`: when it
    /// is held past that deadline, the time it opens.
    func refusal(_ origin: Origin, deadline: DispatchTime?) -> Date? {
        guard let deadline else { return nil }
        let now = clock.now
        let held = state.withLock { $0.origins[origin]?.closedUntil }
        guard let held, held > now, held > deadline else { return nil }
        return clock.date.addingTimeInterval(Self.seconds(from: now, to: held))
    }

    /// Lets a request in, or queues it: `start` then runs once, outside the lock, when its turn comes.
    func enter(
        _ origin: Origin, counts: Bool, waitsForRateLimit: Bool, priority: RequestPriority,
        deadline: DispatchTime?, start: @escaping @Sendable () -> Void
    ) -> Entry {
        let now = clock.now
        if waitsForRateLimit, let until = refusal(origin, deadline: deadline) {
            return .refused(until: until)
        }
        let (entered, reopening) = state.withLock { state -> (Entry, DispatchTime?) in
            var entry = state.origins[origin] ?? OriginState()
            defer { state.origins[origin] = entry.isIdle ? nil : entry }
            if let closed = entry.closedUntil, closed <= now { entry.closedUntil = nil }
            let held = waitsForRateLimit && entry.closedUntil != nil
            let full = counts && budget.map { entry.running >= $0 } ?? false
            guard held || full else {
                if counts { entry.running += 1 }
                return (.admitted, nil)
            }
            state.lastID += 1
            entry.waiting.append(
                Waiter(
                    id: state.lastID, priority: priority, counts: counts,
                    waitsForRateLimit: waitsForRateLimit,
                    start: start))
            return (.waiting(state.lastID), entry.reopening())
        }
        if let reopening { reopen(origin, at: reopening) }
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
    /// of every request to the origin, if any.
    ///
    /// - Parameter pauseOver: A pause ending then, or before, is over.
    func finished(_ origin: Origin, counted: Bool, pause: TimeInterval?, pauseOver: DispatchTime? = nil) {
        let now = clock.now
        let (starts, reopening) = state.withLock { state in
            var entry = state.origins[origin] ?? OriginState()
            if let pauseOver, let closed = entry.closedUntil, closed <= pauseOver {
                entry.closedUntil = nil
                entry.reopensAt = nil
            }
            if counted { entry.running = max(0, entry.running - 1) }
            if let pause {
                let until = now + pause
                entry.closedUntil = max(entry.closedUntil ?? until, until)
            }
            let starts = admit(&entry, now: now)
            if entry.reopensAt.map({ $0 <= now }) ?? false { entry.reopensAt = nil }
            let reopening = entry.reopening()
            state.origins[origin] = entry.isIdle ? nil : entry
            return (starts, reopening)
        }
        if let reopening { reopen(origin, at: reopening) }
        for waiter in starts { waiter.start() }
    }

    /// Takes a waiting request out of the queue; `false` when it isn't waiting any more (it has started).
    func withdraw(_ id: Int, from origin: Origin) -> Bool {
        state.withLock { state in
            guard let index = state.origins[origin]?.waiting.firstIndex(where: { $0.id == id }) else {
                return false
            }
            state.origins[origin]?.waiting.remove(at: index)
            if state.origins[origin]?.isIdle == true { state.origins[origin] = nil }
            return true
        }
    }

    /// A waiting request's new priority.
    func reprioritize(_ id: Int, in origin: Origin, to priority: RequestPriority) {
        state.withLock { state in
            guard let index = state.origins[origin]?.waiting.firstIndex(where: { $0.id == id }) else {
                return
            }
            state.origins[origin]?.waiting[index].priority = priority
        }
    }

    /// Takes out of the queue, best first, every waiter that may go now, counting those that count.
    private func admit(_ entry: inout OriginState, now: DispatchTime) -> [Waiter] {
        if let closed = entry.closedUntil, closed <= now { entry.closedUntil = nil }
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
