import Foundation

/// A transfer's idle timeout, kept by the layer: FoundationNetworking truncates its own to whole
/// seconds (0.5 s fires at once).
///
/// One timer per transfer, checked at the deadline and pushed back by however long ago data last moved.
/// It is a cancellable dispatch timer, not an `asyncAfter` block: a finished transfer releases it at
/// once, instead of leaving one block per request queued until its deadline (50,000 requests with the
/// default 60 s timeout kept about 150 bytes each).
final class IdleTimer: @unchecked Sendable {
    // Only `cancel()` touches it from outside the timer's queue; dispatch sources are thread-safe.
    private let source: DispatchSourceTimer
    private static let queue = DispatchQueue(label: "NetworkLayer.IdleTimer")

    /// Starts a timer that calls `expire` once the transfer has been idle for `timeout` seconds.
    ///
    /// - Parameters:
    ///   - idleFor: Seconds since data last moved, or `nil` once the transfer is over.
    ///   - expire: Called once, on the timer's queue, when the timeout is reached.
    init(
        timeout: TimeInterval, idleFor: @escaping @Sendable () -> TimeInterval?,
        expire: @escaping @Sendable () -> Void
    ) {
        let source = DispatchSource.makeTimerSource(queue: Self.queue)
        self.source = source
        // The handler holds the source until it is cancelled, when dispatch releases the handler.
        source.setEventHandler {
            guard let idle = idleFor() else { return source.cancel() }
            let remaining = timeout - idle
            if remaining > 0 {
                source.schedule(deadline: .now() + remaining)
            } else {
                source.cancel()
                expire()
            }
        }
        source.schedule(deadline: .now() + timeout)
        source.resume()
    }

    /// Stops the timer and releases what its handler holds.
    func cancel() {
        source.cancel()
    }
}
