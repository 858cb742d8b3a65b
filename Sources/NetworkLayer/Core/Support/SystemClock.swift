import Foundation

/// The real ``NetworkClock``: `DispatchTime.now()`, `Date()`, and one dispatch timer for all its
/// timers.
///
/// One dispatch timer per request cost about ten context switches and 70 µs of CPU a request on Linux,
/// where arming and cancelling a timer wakes libdispatch's manager thread. So the clock keeps every
/// armed ``ClockTimer`` in one table and arms its one dispatch timer, on its serial queue, for the
/// earliest of them, moving it only when a sooner one arrives. When it fires, the timers due run (in
/// deadline order, each on its queue) and it is armed for the next; with nothing armed, nothing runs.
/// A timer armed keeps the clock alive, so a wait outlives the layer that started it.
package final class SystemClock: NetworkClock {
    /// How late a timer may fire: fractional timeouts stay exact to within a few milliseconds.
    static let leeway = DispatchTimeInterval.milliseconds(2)

    private struct State {
        var armed: [ObjectIdentifier: (timer: Timer, deadline: DispatchTime)] = [:]
        /// When the dispatch timer fires next; `nil` when it is not armed.
        var next: DispatchTime?
        var source: (any DispatchSourceTimer)?
    }

    private let state = Locked(State())
    /// Serial, so the timers due run in order.
    private let queue = Queues.clock()

    /// A clock of its own: a layer's, or a token authenticator's until a layer hands it its own.
    package init() {}

    package var now: DispatchTime { .now() }

    package var date: Date { Date() }

    package func makeTimer(on queue: DispatchQueue?, handler: @escaping @Sendable () -> Void)
        -> any ClockTimer
    {
        Timer(clock: self, queue: queue, handler: handler)
    }

    /// How many timers are armed; tests use it to see that a finished request leaves none.
    var armedCount: Int { state.withLock { $0.armed.count } }

    /// Whether the dispatch timer is armed; tests use it to see that an idle clock has none running.
    var isArmed: Bool { state.withLock { $0.next != nil } }

    fileprivate func schedule(_ timer: Timer, at deadline: DispatchTime) {
        state.withLock {
            $0.armed[ObjectIdentifier(timer)] = (timer, deadline)
            arm(&$0, at: deadline)
        }
    }

    /// The dispatch timer stays armed: when it fires with nothing due it just arms for the next.
    fileprivate func cancel(_ timer: Timer) {
        _ = state.withLock { $0.armed.removeValue(forKey: ObjectIdentifier(timer)) }
    }

    /// Arms the dispatch timer for `deadline` unless it is already armed for an earlier time.
    private func arm(_ state: inout State, at deadline: DispatchTime) {
        if let next = state.next, next <= deadline { return }
        state.next = deadline
        let source = state.source ?? DispatchSource.makeTimerSource(queue: queue)
        source.schedule(deadline: deadline, leeway: Self.leeway)
        guard state.source == nil else { return }
        source.setEventHandler { [weak self] in self?.fired() }
        state.source = source
        source.resume()
    }

    /// Runs the timers due, outside the lock, and arms for the next.
    private func fired() {
        let now = DispatchTime.now()
        let due: [(timer: Timer, deadline: DispatchTime)] = state.withLock { state in
            state.next = nil
            let due = state.armed.values.filter { $0.deadline <= now }
            for entry in due { state.armed[ObjectIdentifier(entry.timer)] = nil }
            if let next = state.armed.values.map(\.deadline).min() { arm(&state, at: next) }
            return due
        }
        for entry in due.sorted(by: { $0.deadline < $1.deadline }) { entry.timer.fire() }
    }

    deinit {
        state.withLock { $0.source }?.cancel()
    }

    fileprivate final class Timer: ClockTimer {
        private let clock: SystemClock
        private let queue: DispatchQueue?
        private let handler: @Sendable () -> Void

        init(clock: SystemClock, queue: DispatchQueue?, handler: @escaping @Sendable () -> Void) {
            self.clock = clock
            self.queue = queue
            self.handler = handler
        }

        func schedule(at deadline: DispatchTime) {
            clock.schedule(self, at: deadline)
        }

        func cancel() {
            clock.cancel(self)
        }

        func fire() {
            if let queue { queue.async(execute: handler) } else { handler() }
        }
    }
}
