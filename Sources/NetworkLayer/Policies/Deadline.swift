import Foundation

/// A wait with a time limit: the answer and the deadline race, and exactly one of them wins.
///
/// The one mechanism behind every wait of the policy stage: an interceptor's `adapt` or `retry` that
/// never calls back, and a token refresh that never completes. Whoever calls ``claim()`` first wins;
/// when the deadline comes first, `expire` runs (once) and every later ``claim()`` is refused, so a late
/// answer changes nothing. A cancellable dispatch timer, released as soon as the answer arrives.
package final class Deadline: @unchecked Sendable {
    private let once = Once()
    // Dispatch sources are thread-safe; `nil` without a limit.
    private let source: DispatchSourceTimer?
    private static let queue = DispatchQueue(label: "NetworkLayer.Deadline", qos: .userInitiated)

    /// Starts the clock.
    ///
    /// - Parameters:
    ///   - seconds: The limit; `nil`, NaN or infinite means none (then `expire` never runs).
    ///   - expire: Runs once, on a private queue, if nobody claimed the wait within `seconds`.
    package init(seconds: TimeInterval?, expire: @escaping @Sendable () -> Void) {
        guard let seconds, seconds.isFinite else {
            source = nil
            return
        }
        let source = DispatchSource.makeTimerSource(queue: Self.queue)
        self.source = source
        let once = once
        source.setEventHandler {
            source.cancel()
            if once.claim() { expire() }
        }
        source.schedule(deadline: .now() + max(0, seconds))
        source.resume()
    }

    /// `true` for the first answer within the limit, which stops the clock; `false` for a second answer,
    /// or any answer after the deadline.
    package func claim() -> Bool {
        guard once.claim() else { return false }
        source?.cancel()
        return true
    }
}
