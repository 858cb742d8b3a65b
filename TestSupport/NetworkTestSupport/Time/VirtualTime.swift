import Foundation
import NetworkLayer

/// The ``NetworkClock`` behind a ``TestClock``: both readings move only when the test advances them, and
/// a timer runs when an advance passes its deadline.
///
/// One condition guards the state; timers run outside it, so a timer's work may schedule more.
final class VirtualTime: NetworkClock, @unchecked Sendable {  // every stored var is behind `condition`
    /// Uptime starts above zero: `DispatchTime(uptimeNanoseconds: 0)` reads as "now" on some platforms.
    private static let origin: UInt64 = 1_000_000_000

    private struct Armed {
        let timer: Timer
        let deadline: UInt64
        /// Breaks ties in the order the timers were armed.
        let order: UInt64
    }

    private let condition = NSCondition()
    private var nanoseconds = origin
    private var armed: [ObjectIdentifier: Armed] = [:]
    private var armings: UInt64 = 0
    /// Counts the arming of timers and waits, for ``wait(timeout:until:)``.
    private var changes: UInt64 = 0
    private var requestedWaits: [TimeInterval] = []
    private let start: Date

    /// The uptime `offset` nanoseconds after the clock was made.
    static func uptime(at offset: Int64) -> UInt64 { origin + UInt64(max(0, offset)) }

    init(start: Date) {
        self.start = start
    }

    private func locked<Result>(_ body: () -> Result) -> Result {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    var now: DispatchTime { DispatchTime(uptimeNanoseconds: locked { nanoseconds }) }

    var date: Date { start.addingTimeInterval(elapsed) }

    var elapsed: TimeInterval { TimeInterval(locked { nanoseconds } - Self.origin) / 1e9 }

    var waits: [TimeInterval] { locked { requestedWaits } }

    var pendingDeadlines: [TimeInterval] {
        locked {
            armed.values.map { TimeInterval($0.deadline - min($0.deadline, nanoseconds)) / 1e9 }.sorted()
        }
    }

    func makeTimer(on queue: DispatchQueue?, handler: @escaping @Sendable () -> Void) -> any ClockTimer {
        Timer(time: self, queue: queue, handler: handler)
    }

    /// A wait, recorded so a test reads the delays the layer asked for.
    @discardableResult
    func run(after delay: TimeInterval, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void)
        -> any ClockTimer
    {
        let timer = Timer(time: self, queue: queue, handler: work)
        let wait = max(0, delay)
        locked { requestedWaits.append(wait) }  // before arming, which wakes a test waiting for it
        timer.schedule(at: now + wait)
        return timer
    }

    /// Moves time to `target` nanoseconds of uptime, running each timer due on the way at its own
    /// deadline, soonest first, `limit` at most; returns how many ran.
    @discardableResult
    func advance(to target: UInt64, limit: Int = .max) -> Int {
        var fired = 0
        while fired < limit, let timer = takeSoonest(dueBy: target) {
            timer.fire()
            fired += 1
        }
        return fired
    }

    /// Advances to each next deadline until none is armed, or `limit` timers ran (a timer re-armed
    /// for ever, such as an idle timeout kept alive, would never let it stop).
    func advanceUntilIdle(limit: Int) -> Int {
        var fired = 0
        while fired < limit, let next = locked({ armed.values.map(\.deadline).min() }) {
            fired += advance(to: next, limit: limit - fired)
        }
        return fired
    }

    func advance(by seconds: TimeInterval) -> Int {
        precondition(seconds >= 0 && seconds.isFinite, "a test clock moves forward by a finite time")
        return advance(to: locked { nanoseconds } + UInt64((seconds * 1e9).rounded()))
    }

    /// Blocks until `condition` holds, checking it again each time a timer is armed or a wait asked
    /// for and every few milliseconds, or until `timeout` real seconds pass.
    func wait(timeout: TimeInterval, until condition: () -> Bool) -> Bool {
        let limit = Date(timeIntervalSinceNow: timeout)
        while true {
            let seen = locked { changes }
            if condition() { return true }
            // A condition may also read state the clock doesn't see change (a server's count): look
            // again every few milliseconds too.
            let more = locked {
                if changes == seen {
                    _ = self.condition.wait(until: min(limit, Date(timeIntervalSinceNow: 0.005)))
                }
                return Date() < limit
            }
            if !more { return condition() }
        }
    }

    /// The soonest timer due by `target`, with time moved to its deadline; with none, time moves to
    /// `target` in the same step, so a timer armed meanwhile is either taken or armed after it.
    private func takeSoonest(dueBy target: UInt64) -> Timer? {
        locked {
            guard
                let soonest = armed.values.min(by: { ($0.deadline, $0.order) < ($1.deadline, $1.order) }),
                soonest.deadline <= target
            else {
                nanoseconds = max(nanoseconds, target)
                return nil
            }
            armed[ObjectIdentifier(soonest.timer)] = nil
            nanoseconds = max(nanoseconds, soonest.deadline)
            return soonest.timer
        }
    }

    fileprivate func schedule(_ timer: Timer, at deadline: DispatchTime) {
        locked {
            armings += 1
            changes += 1
            armed[ObjectIdentifier(timer)] = Armed(
                timer: timer, deadline: max(deadline.uptimeNanoseconds, nanoseconds), order: armings)
            condition.broadcast()
        }
    }

    fileprivate func cancel(_ timer: Timer) {
        _ = locked { armed.removeValue(forKey: ObjectIdentifier(timer)) }
    }

    fileprivate final class Timer: ClockTimer {
        private let time: VirtualTime
        private let queue: DispatchQueue?
        private let handler: @Sendable () -> Void

        init(time: VirtualTime, queue: DispatchQueue?, handler: @escaping @Sendable () -> Void) {
            self.time = time
            self.queue = queue
            self.handler = handler
        }

        func schedule(at deadline: DispatchTime) { time.schedule(self, at: deadline) }

        func cancel() { time.cancel(self) }

        /// On the timer's queue, and before the advance that passed its deadline returns, so what a
        /// test asserts after `advance(by:)` has happened. A timer for the main queue, advanced from the
        /// main thread, runs in place: waiting for it there would never end. (The layer's timers name
        /// only the main queue or queues that don't target it; a progress throttle hops by itself.)
        func fire() {
            guard let queue, !(queue === DispatchQueue.main && Thread.isMainThread) else { return handler() }
            queue.sync(execute: handler)
        }
    }
}
