import Foundation

/// What one stream knows across its connections: counts, last event ID, the server's `retry:`, and the
/// current connection. Written on the delegate queue, read on the policy queue and by the completion.
package final class StreamState: Sendable {
    private struct Counts {
        var events = 0
        var bytes = 0
        var reconnects = 0
        /// Reconnections since the last connection worth keeping.
        var reconnectsInARow = 0
        /// Whether a connection of that run had events yet ended too soon: the server closes streams on
        /// purpose (a storm) rather than being out of reach.
        var runHadEvents = false
        /// When the current connection's stream opened (uptime ns); `nil` until it opens.
        var connectionOpened: UInt64?
        var connectionEvents = 0
        /// Events the server sent over every connection, skipped ones included.
        var serverEvents = 0
        var lastEventID = ""
        var retry: TimeInterval?
    }

    private let counts = Locked(Counts())
    private let clock: any NetworkClock

    /// The state of a stream of the layer whose clock is `clock`.
    package init(clock: any NetworkClock) {
        self.clock = clock
    }

    package var lastEventID: String { counts.withLock { $0.lastEventID } }
    package var retry: TimeInterval? { counts.withLock { $0.retry } }
    package var eventCount: Int { counts.withLock { $0.events } }
    package var reconnectCount: Int { counts.withLock { $0.reconnects } }
    /// Grows with every element handed over and every event the server sent (skipped ones too), so a
    /// stream that moved on counts its attempts afresh even when a typed stream skipped every event.
    package var progress: Int { counts.withLock { $0.events + $0.serverEvents } }

    package func summary(of response: NetworkResponse<Data>) -> StreamSummary {
        counts.withLock {
            StreamSummary(
                statusCode: response.statusCode, headers: response.headers, url: response.url,
                eventCount: $0.events, byteCount: $0.bytes, reconnectCount: $0.reconnects,
                lastEventID: $0.lastEventID.isEmpty ? nil : $0.lastEventID, metrics: response.metrics)
        }
    }

    /// What the parser read, whether or not the format hands the events over.
    package func record(lastEventID: String, retry: TimeInterval?, events: Int = 0) {
        counts.withLock {
            $0.lastEventID = lastEventID
            if let retry { $0.retry = retry }
            $0.connectionEvents += events
            $0.serverEvents += events
        }
    }

    package func received(bytes: Int, events: Int) {
        counts.withLock {
            $0.bytes += bytes
            $0.events += events
        }
    }

    /// A connection's reply was accepted as the stream; `now` is in uptime nanoseconds.
    func connectionOpened(at now: UInt64? = nil) {
        let now = now ?? clock.now.uptimeNanoseconds
        counts.withLock {
            $0.connectionOpened = now
            $0.connectionEvents = 0
        }
    }

    enum ReconnectClaim: Equatable {
        /// Reconnect: the `inARow`th since a connection worth keeping (1 right after one); sets the backoff.
        case granted(inARow: Int)
        /// No more: `maximum` in a row; `storm` when some of their connections had events.
        case exhausted(storm: Bool)
    }

    /// Takes one reconnection unless `maximum` were made in a row without a connection worth keeping (an
    /// event and `keptAfter` seconds): a server closing every stream after one event can't make it
    /// reconnect for ever.
    func claimReconnect(
        maximum: Int, keptAfter: TimeInterval, now: UInt64? = nil
    ) -> ReconnectClaim {
        let now = now ?? clock.now.uptimeNanoseconds
        return counts.withLock {
            let lived = $0.connectionOpened.map { now > $0 ? TimeInterval(now - $0) / 1e9 : 0 } ?? 0
            if $0.connectionEvents > 0 {
                let kept = lived >= keptAfter
                if kept { $0.reconnectsInARow = 0 }
                $0.runHadEvents = !kept
            }
            // The next attempt may fail before its stream opens: it then had no events and no life.
            $0.connectionOpened = nil
            $0.connectionEvents = 0
            guard $0.reconnectsInARow < maximum else {
                return .exhausted(storm: $0.runHadEvents && $0.reconnectsInARow > 0)
            }
            $0.reconnectsInARow += 1
            $0.reconnects += 1
            return .granted(inARow: $0.reconnectsInARow)
        }
    }
}
