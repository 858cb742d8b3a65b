import Foundation

/// Delivers a transfer's progress at most about 30 times a second, on ``queue`` (serial, targeting the
/// callback queue, where the completion also runs, so every call returns before it), with a final call
/// of every byte before success. One delivery at a time, reading the newest figures; no lock is held
/// while the handler runs, so it may call back into the layer. A monitor's `observer` is told each
/// delivery too, and the final figures as soon as the transport has them (before the outcome, so before
/// the monitors' `didFinish`), under the lock so its calls keep their order: it only enqueues.
final class ProgressReporter: Sendable {
    /// 1/30 s.
    static let interval: UInt64 = 33_333_333

    private struct State {
        var latest: TransferProgress?
        /// Whether a delivery is scheduled or its handler is running.
        var busy = false
        var lastDelivery: UInt64 = 0
        var final: TransferProgress?
        var reported: TransferProgress?
        /// What the observer was last told.
        var observed: TransferProgress?
        var ended = false
    }

    /// Where the handler runs, one call at a time, and where the transfer's completion must run.
    let queue: DispatchQueue
    private let clock: any NetworkClock
    private let handler: UncheckedSendable<((TransferProgress) -> Void)?>
    private let observer: (@Sendable (TransferProgress) -> Void)?
    private let state = Locked(State())

    init(
        callbackQueue: DispatchQueue, clock: any NetworkClock, handler: ((TransferProgress) -> Void)?,
        observer: (@Sendable (TransferProgress) -> Void)? = nil
    ) {
        queue = DispatchQueue(label: "NetworkLayer.TransferCallbacks", target: callbackQueue)
        self.clock = clock
        self.handler = UncheckedSendable(value: handler)
        self.observer = observer
    }

    /// New figures from the transport. Fewer bytes than already reported (a download that had to start
    /// over) are held back until the count passes the old one again.
    func update(completed: Int64, expected: Int64?) {
        scheduleDelivery {
            $0.latest = TransferProgress(completedBytes: completed, expectedBytes: expected)
            return true
        }
    }

    /// The figures the last call reports, once the transport has finished with every byte.
    func complete(completed: Int64, expected: Int64?) {
        let final = TransferProgress(completedBytes: completed, expectedBytes: expected)
        state.withLock {
            $0.final = final
            if let observer, Self.advance(&$0.observed, to: final, orOtherTotal: true) { observer(final) }
        }
    }

    /// On ``queue``, just before the success handler: reports every byte, unless the last call already
    /// did, and stops further calls.
    func finish() {
        let call: TransferProgress? = state.withLock {
            guard !$0.ended else { return nil }
            $0.ended = true
            guard let final = $0.final ?? $0.latest, Self.advance(&$0.reported, to: final, orOtherTotal: true)
            else { return nil }
            return final
        }
        if let call { handler.value?(call) }
    }

    /// Whether `progress` is ahead of `reported`, which it then replaces: more bytes, or as many with
    /// another total. Never backwards, but with `orOtherTotal` (the last figures) for a download that
    /// started over on a smaller version (another total): the last call then says what the file holds.
    private static func advance(
        _ reported: inout TransferProgress?, to progress: TransferProgress, orOtherTotal: Bool = false
    ) -> Bool {
        let isNews =
            reported.map {
                progress != $0
                    && ($0.completedBytes <= progress.completedBytes
                        || (orOtherTotal && $0.expectedBytes != progress.expectedBytes))
            } ?? true
        if isNews { reported = progress }
        return isNews
    }

    /// On ``queue``, before the error handler: no calls from now on.
    func end() {
        state.withLock { $0.ended = true }
    }

    /// The wait before the next delivery. `now` may be older than `lastDelivery`: it is read before the
    /// lock, and a delivery may have run in between; then the full interval.
    static func delay(since lastDelivery: UInt64, now: UInt64) -> UInt64 {
        let since = now >= lastDelivery ? now - lastDelivery : 0
        return since >= interval ? 0 : interval - since
    }

    /// Schedules a delivery once `change` (run under the lock) says there is news, unless one is
    /// scheduled or running; it runs after ``delay(since:now:)``.
    private func scheduleDelivery(_ change: (inout State) -> Bool) {
        let now = clock.now.uptimeNanoseconds
        let delay: UInt64? = state.withLock { state in
            guard change(&state), !state.busy, !state.ended else { return nil }
            state.busy = true
            return Self.delay(since: state.lastDelivery, now: now)
        }
        guard let delay else { return }
        guard delay > 0 else { return queue.async { self.deliverLatest() } }
        // A timer that hops to the queue itself: the queue may target the main queue, which a test clock
        // advanced from the main thread could not wait for.
        clock.makeTimer(on: nil) { self.queue.async { self.deliverLatest() } }.schedule(
            at: clock.now + TimeInterval(delay) / 1e9)
    }

    private func deliverLatest() {
        let now = clock.now.uptimeNanoseconds
        let call: TransferProgress? = state.withLock {
            $0.lastDelivery = now
            guard !$0.ended, let progress = $0.latest, Self.advance(&$0.reported, to: progress) else {
                return nil
            }
            if let observer, Self.advance(&$0.observed, to: progress) { observer(progress) }
            return progress
        }
        if let call { handler.value?(call) }
        // Figures that arrived while the handler ran are delivered next, after the interval.
        scheduleDelivery { state in
            state.busy = false
            return state.latest != state.reported
        }
    }
}
