import Foundation

/// A wait with a time limit behind every wait of the policy stage (a hook or refresh that never answers):
/// the first ``claim()`` wins; if the deadline comes first, `expire` runs once and later claims are
/// refused. Kept by the one ``DeadlineClock``, not a timer of its own.
package final class Deadline: Expiring, Sendable {
    private let once = Once()
    private let limit: DispatchTime?
    private let onExpiry: @Sendable () -> Void

    /// - Parameters:
    ///   - seconds: The limit; `nil`, NaN or infinite means none.
    ///   - expire: Runs once, on the policy clock's queue, if nobody claimed the wait in time.
    package init(seconds: TimeInterval?, expire: @escaping @Sendable () -> Void) {
        onExpiry = expire
        guard let seconds, seconds.isFinite else {
            limit = nil
            return
        }
        let limit = DispatchTime.now() + max(0, seconds)
        self.limit = limit
        DeadlineClock.policies.register(self, deadline: limit)
    }

    /// `true` for the first answer within the limit; `false` for a second one or one after the deadline.
    package func claim() -> Bool {
        guard once.claim() else { return false }
        if limit != nil { DeadlineClock.policies.remove(self) }
        return true
    }

    var deadline: DispatchTime? { limit }

    func expire() {
        if once.claim() { onExpiry() }
    }
}
