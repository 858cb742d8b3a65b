import Foundation

/// A wait with a time limit: the answer and the deadline race, and exactly one of them wins.
///
/// The one mechanism behind every wait of the policy stage: an interceptor's `adapt` or `retry` that
/// never calls back, and a token refresh that never completes. Whoever calls ``claim()`` first wins;
/// when the deadline comes first, `expire` runs (once) and every later ``claim()`` is refused, so a late
/// answer changes nothing. Kept by its layer's policy ``DeadlineRegistry``, not a timer of its own, and
/// released as soon as the answer arrives.
package final class Deadline: Expiring, Sendable {
    private let once = Once()
    /// Fixed at creation; `nil` without a limit.
    private let limit: DispatchTime?
    private let registry: DeadlineRegistry
    private let onExpiry: @Sendable () -> Void

    /// Starts the clock.
    ///
    /// - Parameters:
    ///   - seconds: The limit; `nil`, NaN or infinite means none (then `expire` never runs).
    ///   - registry: The layer's policy deadlines, on the layer's clock.
    ///   - expire: Runs once, where the registry sweeps, if nobody claimed the wait within `seconds`.
    init(seconds: TimeInterval?, on registry: DeadlineRegistry, expire: @escaping @Sendable () -> Void) {
        onExpiry = expire
        self.registry = registry
        guard let seconds, seconds.isFinite else {
            limit = nil
            return
        }
        let limit = registry.now + max(0, seconds)
        self.limit = limit
        registry.register(self, deadline: limit)
    }

    /// `true` for the first answer within the limit, which stops the clock; `false` for a second answer,
    /// or any answer after the deadline.
    package func claim() -> Bool {
        guard once.claim() else { return false }
        if limit != nil { registry.remove(self) }
        return true
    }

    var deadline: DispatchTime? { limit }

    func expire() {
        if once.claim() { onExpiry() }
    }
}
