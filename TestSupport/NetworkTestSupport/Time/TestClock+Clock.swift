import Foundation

@available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
extension TestClock: Clock {
    /// A point on a ``TestClock``: the time advanced since the clock was made.
    public struct Instant: InstantProtocol {
        /// The time since the clock was made.
        public let offset: Duration

        /// - Parameter offset: The time since the clock was made.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// The instant `duration` later.
        ///
        /// - Parameter duration: How much later.
        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        /// The time from this instant to `other`.
        ///
        /// - Parameter other: The later (or earlier) instant.
        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        /// Whether `lhs` comes before `rhs`.
        ///
        /// - Parameters:
        ///   - lhs: One instant.
        ///   - rhs: Another.
        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    /// The current instant: the time advanced so far.
    public var now: Instant { Instant(offset: .nanoseconds(Int64((elapsed * 1e9).rounded()))) }

    /// One nanosecond: the clock moves by exactly what a test asks.
    public var minimumResolution: Duration { .nanoseconds(1) }

    /// Suspends until an advance of the clock passes `deadline`; a deadline already passed returns at
    /// once. The sleeper resumes once that advance has run the deadline's timer: code after the `await`
    /// may run after `advance(by:)` returns, so wait for its effect as for any task's.
    ///
    /// - Parameters:
    ///   - deadline: The instant to wait for.
    ///   - tolerance: Ignored: the clock moves only when told to.
    /// - Throws: `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        guard deadline > now else { return }
        let (seconds, attoseconds) = deadline.offset.components
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        let (sum, sumOverflow) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        let nanoseconds = overflow || sumOverflow ? Int64.max : sum
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Void, any Error>) in
                sleeper.start(continuation) {
                    let timer = time.makeTimer(on: nil) { sleeper.finish(throwing: nil) }
                    timer.schedule(at: DispatchTime(uptimeNanoseconds: VirtualTime.uptime(at: nanoseconds)))
                    return timer
                }
            }
        } onCancel: {
            sleeper.finish(throwing: CancellationError())
        }
    }

    /// Moves the clock on by `duration`; see ``advance(by:)-(TimeInterval)``.
    ///
    /// - Parameter duration: A time, zero or more.
    /// - Returns: How many timers ran.
    @discardableResult
    public func advance(by duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return advance(by: TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18)
    }
}
