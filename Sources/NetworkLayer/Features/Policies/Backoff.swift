import Foundation

/// How long to wait after failures in a row: ``initialDelay`` after the first, doubled after each next,
/// never more than ``maximumDelay``, spread by ``jitter``, never less than ``minimumDelay``.
///
/// The one backoff of the layer: the retry policy's waits (full jitter), the outbox's (the upper half),
/// a stream's reconnections (a floor, no jitter) and a resumable upload's offset questions (no jitter).
struct Backoff: Sendable, Hashable {
    /// How much of the doubled wait is taken at random, so that clients failing together don't come back
    /// together.
    enum Jitter: Sendable, Hashable {
        /// The doubled wait itself.
        case none
        /// Anywhere from zero to the doubled wait ("full jitter"): the most spread.
        case full
        /// Anywhere from half the doubled wait to all of it: spread, yet never much sooner.
        case upperHalf
    }

    /// The wait after the first failure, in seconds, before jitter.
    var initialDelay: TimeInterval
    /// The longest wait, in seconds, before jitter.
    var maximumDelay: TimeInterval
    /// How the wait is spread; none by default.
    var jitter = Jitter.none
    /// The shortest wait, in seconds, after jitter (zero by default): a floor that keeps a zero wait from
    /// becoming a loop.
    var minimumDelay: TimeInterval = 0

    /// The wait after `failures` failures in a row (1 for the first), or `nil` when it would be endless
    /// (an infinite or NaN bound): no timer can be set for it.
    ///
    /// - Parameters:
    ///   - failures: Failures in a row; less than 1 counts as 1, and the doubling stops at the 63rd.
    ///   - generator: The random source of the jitter; a test's is deterministic.
    func delay(
        afterFailures failures: Int, using generator: inout some RandomNumberGenerator
    ) -> TimeInterval? {
        let doubled = initialDelay * pow(2, Double(min(max(0, failures - 1), 62)))
        let ceiling = min(maximumDelay, doubled)
        // `random(in:)` has no distribution on an endless range, and no timer waits for ever.
        guard ceiling.isFinite else { return nil }
        guard ceiling > 0 else { return max(minimumDelay, 0) }
        let wait =
            switch jitter {
            case .none: ceiling
            case .full: Double.random(in: 0...ceiling, using: &generator)
            case .upperHalf: Double.random(in: ceiling / 2...ceiling, using: &generator)
            }
        return max(minimumDelay, wait)
    }

    /// The wait after `failures` failures in a row, jittered by the system's random source; see
    /// ``delay(afterFailures:using:)``.
    ///
    /// - Parameter failures: Failures in a row; less than 1 counts as 1.
    func delay(afterFailures failures: Int) -> TimeInterval? {
        var generator = SystemRandomNumberGenerator()
        return delay(afterFailures: failures, using: &generator)
    }
}
