import Foundation

@testable import NetworkLayer

/// A clock a test moves: nothing it schedules runs until ``advance(by:)`` passes its deadline, and then
/// in deadline order, each on the queue it names. Its date starts at the real date and moves with it.
final class ManualClock: NetworkClock {
    private struct State {
        var nanoseconds: UInt64 = 1_000_000_000
        var armed: [ObjectIdentifier: (timer: Timer, deadline: DispatchTime)] = [:]
    }

    private let state = Locked(State())
    private let start: Date

    init(date: Date = Date()) {
        start = date
    }

    var now: DispatchTime { DispatchTime(uptimeNanoseconds: state.withLock { $0.nanoseconds }) }

    var date: Date {
        start.addingTimeInterval(TimeInterval(state.withLock { $0.nanoseconds } - 1_000_000_000) / 1e9)
    }

    func makeTimer(on queue: DispatchQueue?, handler: @escaping @Sendable () -> Void) -> any ClockTimer {
        Timer(clock: self, queue: queue, handler: handler)
    }

    /// The armed timers' deadlines, in seconds from now, soonest first.
    var pendingDelays: [TimeInterval] {
        state.withLock { state in
            state.armed.values.map { TimeInterval($0.deadline.uptimeNanoseconds - state.nanoseconds) / 1e9 }
                .sorted()
        }
    }

    /// Moves the clock on by `seconds`, running each timer it passes at its own deadline, in order.
    func advance(by seconds: TimeInterval) {
        let target = state.withLock { $0.nanoseconds } + UInt64(seconds * 1e9)
        while let timer = nextDue(by: target) { timer.fire() }
        state.withLock { $0.nanoseconds = max($0.nanoseconds, target) }
    }

    /// Takes the soonest timer due by `target` and moves the clock to its deadline.
    private func nextDue(by target: UInt64) -> Timer? {
        state.withLock { state in
            guard let soonest = state.armed.values.min(by: { $0.deadline < $1.deadline }),
                soonest.deadline.uptimeNanoseconds <= target
            else { return nil }
            state.armed[ObjectIdentifier(soonest.timer)] = nil
            state.nanoseconds = max(state.nanoseconds, soonest.deadline.uptimeNanoseconds)
            return soonest.timer
        }
    }

    fileprivate func schedule(_ timer: Timer, at deadline: DispatchTime) {
        state.withLock { $0.armed[ObjectIdentifier(timer)] = (timer, deadline) }
    }

    fileprivate func cancel(_ timer: Timer) {
        _ = state.withLock { $0.armed.removeValue(forKey: ObjectIdentifier(timer)) }
    }

    fileprivate final class Timer: ClockTimer {
        private let clock: ManualClock
        private let queue: DispatchQueue?
        private let handler: @Sendable () -> Void

        init(clock: ManualClock, queue: DispatchQueue?, handler: @escaping @Sendable () -> Void) {
            self.clock = clock
            self.queue = queue
            self.handler = handler
        }

        func schedule(at deadline: DispatchTime) { clock.schedule(self, at: deadline) }

        func cancel() { clock.cancel(self) }

        func fire() {
            if let queue { queue.async(execute: handler) } else { handler() }
        }
    }
}
