import Foundation

/// Measures one request for ``RequestMetrics`` across its attempts with a monotonic clock; events come
/// from different queues (caller, policy, delegate), hence ``Locked``.
package final class RequestMeter: Sendable {
    private struct Counts {
        var attemptStart: UInt64 = 0
        var firstByte: UInt64?
        var bytesSent = 0
        var bytesReceived = 0
        var attempts = 0
        var queued: UInt64 = 0
        var bodyResends = 0
    }

    private let startDate: Date
    private let start: UInt64
    private let counts = Locked(Counts())
    /// A stream's count of delivered elements; `nil` for any other request.
    private let eventCount: (@Sendable () -> Int)?
    private let clock: any NetworkClock

    /// A meter for a request of the layer whose clock is `clock`, starting now.
    init(eventCount: (@Sendable () -> Int)?, clock: any NetworkClock) {
        self.eventCount = eventCount
        self.clock = clock
        startDate = clock.date
        start = clock.now.uptimeNanoseconds
    }

    /// The number of the latest attempt, as ``beginAttempt(sending:)`` gave it; 0 before the first.
    package var latestAttempt: Int { counts.withLock { $0.attempts } }

    /// An attempt sending `bodyBytes` starts; returns its number (1 for the first).
    package func beginAttempt(sending bodyBytes: Int) -> Int {
        let now = clock.now.uptimeNanoseconds
        return counts.withLock {
            $0.attempts += 1
            $0.attemptStart = now
            $0.firstByte = nil
            $0.bytesSent += bodyBytes
            return $0.attempts
        }
    }

    /// The attempt ended: its response head arrived at `respondedAt` (uptime nanoseconds), with a body
    /// of `bodyBytes`; the transport sent its body again `bodyResends` times.
    package func endAttempt(respondedAt: UInt64?, receiving bodyBytes: Int, bodyResends: Int = 0) {
        counts.withLock {
            $0.firstByte = respondedAt
            $0.bytesReceived += bodyBytes
            $0.bodyResends += bodyResends
        }
    }

    /// The request waited `nanoseconds` for its server (a budget or a rate limit) before an attempt.
    func addQueued(nanoseconds: UInt64) {
        counts.withLock { $0.queued += nanoseconds }
    }

    /// How long the request waited for its server so far: a shared request's time, for each of its callers.
    var queuedNanoseconds: UInt64 { counts.withLock { $0.queued } }

    package var metrics: RequestMetrics {
        let now = clock.now.uptimeNanoseconds
        let counts = counts.withLock { $0 }
        var metrics = RequestMetrics(
            startDate: startDate, duration: Self.seconds(now - start),
            timeToFirstByte: counts.firstByte.map {
                Self.seconds($0 >= counts.attemptStart ? $0 - counts.attemptStart : 0)
            },
            bytesSent: counts.bytesSent, bytesReceived: counts.bytesReceived,
            attempts: max(counts.attempts, 1), eventCount: eventCount?())
        metrics.queuedDuration = Self.seconds(counts.queued)
        metrics.bodyResends = counts.bodyResends
        return metrics
    }

    private static func seconds(_ nanoseconds: UInt64) -> TimeInterval {
        TimeInterval(nanoseconds) / 1e9
    }
}
