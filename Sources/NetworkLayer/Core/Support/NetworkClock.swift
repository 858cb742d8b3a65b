import Foundation

/// The layer's time: every deadline, wait, throttle and age the library keeps reads and schedules
/// through the clock its ``NetworkLayer`` owns and passes down, never through a global.
///
/// Two readings, and one way to wait: ``now`` is monotonic, for deadlines and durations; ``date`` is the
/// wall clock, for what is compared with dates from elsewhere (HTTP dates, a cached reply's age, a
/// token's expiry); a timer from ``makeTimer(on:handler:)`` runs its handler once the time it is armed
/// for has passed. ``SystemClock`` is the real one. A test clock moves both readings itself and fires the
/// timers due, in deadline order, each on the queue it names, so nothing the library decides by time
/// needs a real wait.
///
/// libcurl's connect timeout, FoundationNetworking's backstop timeout and URLSession's own timers stay on
/// real time: the layer never sees them.
package protocol NetworkClock: AnyObject, Sendable {
    /// The monotonic time: deadlines and durations are measured on it.
    var now: DispatchTime { get }
    /// The wall-clock date: cache ages and freshness, `Retry-After` and token expiry read it.
    var date: Date { get }
    /// A timer, disarmed until ``ClockTimer/schedule(at:)``.
    ///
    /// - Parameters:
    ///   - queue: Where `handler` runs; `nil` runs it where the clock fires (for a real clock its serial
    ///     queue), so it must be short and hop to where its work belongs.
    ///   - handler: Runs once each time the time the timer is armed for passes.
    /// - Returns: The timer; the clock holds it only while it is armed.
    func makeTimer(on queue: DispatchQueue?, handler: @escaping @Sendable () -> Void) -> any ClockTimer

    /// Runs `work` on `queue` once `delay` seconds have passed on the clock: a wait (between attempts,
    /// before a reconnection, a throttle's). Implemented below for every clock by a timer; a clock on
    /// which every wait is over at once (the test doubles') may run `work` in place instead.
    ///
    /// - Parameters:
    ///   - delay: Seconds, finite; zero or less runs `work` soon.
    ///   - queue: Where `work` runs.
    ///   - work: What to run.
    /// - Returns: The armed timer, to ``ClockTimer/cancel()`` the wait.
    @discardableResult
    func run(after delay: TimeInterval, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void)
        -> any ClockTimer
}

/// A timer of a ``NetworkClock``: armed for one time at most, which a new ``schedule(at:)`` replaces.
package protocol ClockTimer: AnyObject, Sendable {
    /// Arms the timer for `deadline` (on its clock's ``NetworkClock/now``), replacing any earlier time;
    /// a deadline already past fires soon.
    func schedule(at deadline: DispatchTime)
    /// Disarms the timer: its handler won't run for the time it was armed for.
    func cancel()
}

extension NetworkClock {
    /// ``NetworkClock/run(after:on:_:)`` for every clock, by one of its timers.
    @discardableResult
    package func run(
        after delay: TimeInterval, on queue: DispatchQueue, _ work: @escaping @Sendable () -> Void
    ) -> any ClockTimer {
        let timer = makeTimer(on: queue, handler: work)
        timer.schedule(at: now + max(0, delay))
        return timer
    }
}
