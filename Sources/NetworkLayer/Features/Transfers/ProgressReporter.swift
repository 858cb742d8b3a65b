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
        let now = clock.now.uptimeNanoseconds
        let delay: UInt64? = state.withLock {
            $0.latest = TransferProgress(completedBytes: completed, expectedBytes: expected)
            return Self.scheduleIfIdle(&$0, now: now)
        }
        if let delay { schedule(after: delay) }
    }

    /// The figures the last call reports, once the transport has finished with every byte.
    func complete(completed: Int64, expected: Int64?) {
        let final = TransferProgress(completedBytes: completed, expectedBytes: expected)
        state.withLock {
            $0.final = final
            guard let observer, Self.isNews(final, after: $0.observed) else { return }
            $0.observed = final
            observer(final)
        }
    }

    /// On ``queue``, just before the success handler: reports every byte, unless the last call already
    /// did, and stops further calls.
    func finish() {
        let call: TransferProgress? = state.withLock {
            guard !$0.ended else { return nil }
            $0.ended = true
            guard let final = $0.final ?? $0.latest, Self.isNews(final, after: $0.reported) else {
                return nil
            }
            $0.reported = final
            return final
        }
        if let call { handler.value?(call) }
    }

    /// Whether the last figures tell more than `reported`: never backwards, but for a download that started
    /// over on a smaller version (another total): the last call then says what the file holds.
    private static func isNews(_ final: TransferProgress, after reported: TransferProgress?) -> Bool {
        guard let reported, final != reported else { return reported == nil }
        return reported.completedBytes <= final.completedBytes
            || reported.expectedBytes != final.expectedBytes
    }

    /// Whether `progress` is ahead of `reported`: more bytes, or as many with another total.
    private static func advances(_ progress: TransferProgress, past reported: TransferProgress?) -> Bool {
        guard let reported else { return true }
        return progress.completedBytes > reported.completedBytes
            || (progress.completedBytes == reported.completedBytes
                && progress.expectedBytes != reported.expectedBytes)
    }

    /// On ``queue``, before the error handler: no calls from now on.
    func end() {
        state.withLock { $0.ended = true }
    }

    /// Marks a delivery scheduled unless one is; the delay before it runs, or `nil` when one already is.
    private static func scheduleIfIdle(_ state: inout State, now: UInt64) -> UInt64? {
        guard !state.busy, !state.ended else { return nil }
        state.busy = true
        return delay(since: state.lastDelivery, now: now)
    }

    /// The wait before the next delivery. `now` may be older than `lastDelivery`: it is read before the
    /// lock, and a delivery may have run in between; then the full interval.
    static func delay(since lastDelivery: UInt64, now: UInt64) -> UInt64 {
        let since = now >= lastDelivery ? now - lastDelivery : 0
        return since >= interval ? 0 : interval - since
    }

    private func schedule(after delay: UInt64) {
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
            guard !$0.ended, let progress = $0.latest, Self.advances(progress, past: $0.reported) else {
                return nil
            }
            $0.reported = progress
            if let observer, Self.advances(progress, past: $0.observed) {
                $0.observed = progress
                observer(progress)
            }
            return progress
        }
        if let call { handler.value?(call) }
        // Figures that arrived while the handler ran are delivered next, after the interval.
        let later = clock.now.uptimeNanoseconds
        let delay: UInt64? = state.withLock { state in
            state.busy = false
            return state.latest != state.reported ? Self.scheduleIfIdle(&state, now: later) : nil
        }
        if let delay { schedule(after: delay) }
    }
}
