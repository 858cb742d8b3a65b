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
    }

    private let startDate = Date()
    private let start = DispatchTime.now().uptimeNanoseconds
    private let counts = Locked(Counts())
    private let stream: StreamState?

    package init() {
        stream = nil
    }

    init(stream: StreamState?) {
        self.stream = stream
    }

    /// The number of the latest attempt, as ``beginAttempt(sending:)`` gave it; 0 before the first.
    package var latestAttempt: Int { counts.withLock { $0.attempts } }

    /// An attempt sending `bodyBytes` starts; returns its number (1 for the first).
    package func beginAttempt(sending bodyBytes: Int) -> Int {
        counts.withLock {
            $0.attempts += 1
            $0.attemptStart = DispatchTime.now().uptimeNanoseconds
            $0.firstByte = nil
            $0.bytesSent += bodyBytes
            return $0.attempts
        }
    }

    /// The attempt ended: its response head arrived at `respondedAt` (uptime nanoseconds), with a body
    /// of `bodyBytes`.
    package func endAttempt(respondedAt: UInt64?, receiving bodyBytes: Int) {
        counts.withLock {
            $0.firstByte = respondedAt
            $0.bytesReceived += bodyBytes
        }
    }

    package var metrics: RequestMetrics {
        let now = DispatchTime.now().uptimeNanoseconds
        let counts = counts.withLock { $0 }
        return RequestMetrics(
            startDate: startDate, duration: Self.seconds(now - start),
            timeToFirstByte: counts.firstByte.map {
                Self.seconds($0 >= counts.attemptStart ? $0 - counts.attemptStart : 0)
            },
            bytesSent: counts.bytesSent, bytesReceived: counts.bytesReceived,
            attempts: max(counts.attempts, 1), eventCount: stream?.eventCount)
    }

    private static func seconds(_ nanoseconds: UInt64) -> TimeInterval {
        TimeInterval(nanoseconds) / 1e9
    }
}
