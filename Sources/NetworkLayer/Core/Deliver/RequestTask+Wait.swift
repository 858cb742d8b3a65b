import Foundation

extension RequestTask {
    /// One wait of the call on the layer's clock (between attempts, before a composed call's next step)
    /// that ends when the call ends. `work` runs once, on `queue`: when `seconds` have passed on `clock`,
    /// or at once when the call ends first (a cancel, its total time limit, its outcome), without waiting
    /// for the timer, which is cancelled. So `work` must look whether the call still runs; what it begins
    /// then is refused (``beginAttempt(reportingTo:sending:)`` is `nil`). A timer firing after the end does nothing.
    ///
    /// The wait is the call's child in flight, as an attempt is: begun with ``beginAttempt(reportingTo:sending:)``, stopped by
    /// the call's end through ``attach(cancellingWith:toAttempt:)``, ended with ``transportFinished(metering:)``
    /// before `work` runs. Why `work` still runs at the end: the request loop must unwind its chain (the
    /// scheduler's budget, a shared request's callers) then rather than when the timer would have fired.
    ///
    /// - Parameters:
    ///   - seconds: The wait; zero or less ends it soon.
    ///   - clock: The layer's clock (a test clock lists the wait in its `waits`).
    ///   - queue: Where `work` runs.
    ///   - work: What follows the wait.
    func wait(
        _ seconds: TimeInterval, on clock: any NetworkClock, queue: DispatchQueue,
        then work: @escaping @Sendable () -> Void
    ) {
        guard let number = beginAttempt()?.child else { return queue.async(execute: work) }
        let once = Once()
        let timer = clock.run(after: seconds, on: queue) { [self] in
            guard once.claim() else { return }
            transportFinished()
            work()
        }
        attach(
            cancellingWith: { [self] in
                guard once.claim() else { return }
                timer.cancel()
                transportFinished()
                queue.async(execute: work)
            }, toAttempt: number)
    }
}
