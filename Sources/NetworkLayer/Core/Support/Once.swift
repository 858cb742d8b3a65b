import Foundation

/// A flag that can be claimed once, from any thread: the one "first caller wins" of the layer and its
/// test doubles (an interceptor calling back twice, a wait and its deadline, a dummy's scripted progress).
package final class Once: Sendable {
    private let claimed = Locked(false)

    package init() {}

    /// Whether it was claimed.
    package var isClaimed: Bool { claimed.withLock { $0 } }

    /// `true` the first time only.
    package func claim() -> Bool {
        claimed.withLock { claimed in
            defer { claimed = true }
            return !claimed
        }
    }
}
