import Foundation

/// A wait with a time limit behind every wait of the policy stage (a hook or refresh that never answers):
/// the first ``claim()`` wins; if the deadline comes first, `expire` runs once and later claims are
/// refused. Kept by its layer's policy ``DeadlineRegistry``, not a timer of its own.
package final class Deadline: Expiring, Sendable {
    private let once = Once()
    private let limit: DispatchTime?
    private let registry: DeadlineRegistry
    private let onExpiry: @Sendable () -> Void

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

    /// `true` for the first answer within the limit; `false` for a second one or one after the deadline.
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
