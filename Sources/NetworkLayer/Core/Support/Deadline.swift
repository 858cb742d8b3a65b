import Foundation

/// A wait with a time limit behind every wait of the policy stage (a hook or refresh that never answers):
/// the first ``claim()`` wins; if the deadline comes first, `expire` runs once and later claims are
/// refused. (A call's total time limit is a plain timer: its task's phase is the latch.) A timer of the layer's clock, which keeps every timer on one
/// dispatch timer (``SystemClock``); a claim disarms it.
package final class Deadline: Sendable {
    private let once = Once()
    private let timer: (any ClockTimer)?

    /// - Parameters:
    ///   - seconds: The limit; `nil`, NaN or infinite means none (then `expire` never runs).
    ///   - clock: The layer's clock.
    ///   - expire: Runs once, where the clock fires, if nobody claimed the wait within `seconds`.
    init(seconds: TimeInterval?, on clock: any NetworkClock, expire: @escaping @Sendable () -> Void) {
        guard let seconds, seconds.isFinite else {
            timer = nil
            return
        }
        let once = once
        // The armed timer holds the handler, so a wait whose owner let go (a hook that never answers and
        // dropped its completion) still expires.
        let timer = clock.makeTimer(on: nil) { if once.claim() { expire() } }
        self.timer = timer
        timer.schedule(at: clock.now + max(0, seconds))
    }

    /// `true` for the first answer within the limit; `false` for a second one or one after the deadline.
    package func claim() -> Bool {
        guard once.claim() else { return false }
        timer?.cancel()
        return true
    }
}
