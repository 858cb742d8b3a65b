import Foundation

/// Measures one request for ``RequestMetrics``, across its attempts, with a monotonic clock.
///
/// Attempts run one after another, but their events arrive on different queues, hence the lock.
package final class RequestMeter: @unchecked Sendable {
    private let lock = NSLock()
    package init() {}

    private let startDate = Date()
    private let start = DispatchTime.now().uptimeNanoseconds
    private var attemptStart: UInt64 = 0
    private var firstByte: UInt64?
    private var bytesSent = 0
    private var bytesReceived = 0
    private var attempts = 0

    /// An attempt sending `bodyBytes` starts; returns its number (1 for the first).
    package func beginAttempt(sending bodyBytes: Int) -> Int {
        lock.withLock {
            attempts += 1
            attemptStart = DispatchTime.now().uptimeNanoseconds
            firstByte = nil
            bytesSent += bodyBytes
            return attempts
        }
    }

    /// The attempt ended: its response head arrived at `respondedAt` (uptime nanoseconds), with a body
    /// of `bodyBytes`.
    package func endAttempt(respondedAt: UInt64?, receiving bodyBytes: Int) {
        lock.withLock {
            firstByte = respondedAt
            bytesReceived += bodyBytes
        }
    }

    /// The metrics so far, the duration counted up to now.
    package var metrics: RequestMetrics {
        lock.withLock {
            let now = DispatchTime.now().uptimeNanoseconds
            return RequestMetrics(
                startDate: startDate, duration: Self.seconds(now - start),
                timeToFirstByte: firstByte.map { Self.seconds($0 >= attemptStart ? $0 - attemptStart : 0) },
                bytesSent: bytesSent, bytesReceived: bytesReceived, attempts: max(attempts, 1))
        }
    }

    private static func seconds(_ nanoseconds: UInt64) -> TimeInterval {
        TimeInterval(nanoseconds) / 1e9
    }
}
