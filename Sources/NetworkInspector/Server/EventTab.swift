import Foundation
import LoopbackHTTP
import NetworkLayer

/// One tab's event stream, written by LoopbackHTTP's bounded stream: an event that doesn't fit in the
/// tab's queue is dropped (counted) and the tab is told to `resync`, so the page fetches the snapshot again.
/// Every event leaves room in the queue for that `resync`, so it always fits and goes out right after the
/// events queued before the drop. The app's memory for a tab is at most ``capacity`` bytes.
///
/// Its lock owns the counts and whether a `resync` was the last thing queued; the stream's `send` never
/// blocks on the tab, so holding the lock across it is brief.
final class EventTab: Sendable {
    private struct State {
        /// A `resync` queued last is still unread while bytes are queued: it covers later drops.
        var resyncQueuedLast = false
        var dropped = 0
        var peakBytes = 0
    }

    private static let resync = InspectorEvent.resync.message()
    let capacity: Int
    private let stream: LoopbackStream
    private let state = Locked(State())

    /// A tab writing to `stream`, whose queue holds `capacity` bytes (the limits' `maxQueuedBytes`).
    init(stream: LoopbackStream, capacity: Int) {
        self.stream = stream
        self.capacity = capacity
    }

    /// Whether the tab went away; it is then forgotten.
    var isClosed: Bool { stream.isClosed }
    /// Every event dropped, for the tests.
    var dropped: Int { state.withLock { $0.dropped } }
    /// The most bytes ever queued, for the tests.
    var peakBytes: Int { state.withLock { $0.peakBytes } }

    /// Queues `message` if it fits beside room for a `resync`; otherwise drops it and queues a `resync`
    /// unless one is still waiting to be read. Returns whether `message` was queued.
    @discardableResult
    func offer(_ message: Data) -> Bool {
        state.withLock { state in
            // Only this lock's holder adds to the queue; the connection's thread only empties it.
            if stream.queuedByteCount + message.count + Self.resync.count <= capacity, stream.send(message) {
                state.resyncQueuedLast = false
                state.peakBytes = max(state.peakBytes, stream.queuedByteCount)
                return true
            }
            state.dropped += 1
            guard !(state.resyncQueuedLast && stream.queuedByteCount > 0), stream.send(Self.resync) else {
                return false
            }
            state.resyncQueuedLast = true
            state.peakBytes = max(state.peakBytes, stream.queuedByteCount)
            return false
        }
    }
}
