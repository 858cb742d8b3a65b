import Foundation
import LoopbackHTTP

/// One tab's event stream: a bounded queue the fan-out fills and the tab's connection thread empties onto
/// its socket. When the tab reads slower than events come, the queue fills and further events are dropped
/// (counted); the thread then sends `resync` before anything else, so the page fetches the snapshot again.
/// The app's memory for a tab is at most ``maximumEvents`` messages and ``maximumBytes`` bytes.
///
/// Invariant for `@unchecked Sendable`: every mutable property is read and written under `condition`.
final class TabStream: EventSink, @unchecked Sendable {
    let maximumEvents: Int
    let maximumBytes: Int
    private let condition = NSCondition()
    private var queue: [Data] = []
    private var queuedBytes = 0
    /// Events dropped since the last `resync` went out.
    private var droppedSinceResync = 0
    private var closed = false
    /// Every event dropped, and the most bytes ever queued: for the tests.
    private(set) var droppedTotal = 0
    private(set) var largestQueuedBytes = 0

    init(maximumEvents: Int, maximumBytes: Int) {
        self.maximumEvents = maximumEvents
        self.maximumBytes = maximumBytes
    }

    var isClosed: Bool { condition.withLock { closed } }
    var dropped: Int { condition.withLock { droppedTotal } }
    var peakBytes: Int { condition.withLock { largestQueuedBytes } }

    func offer(_ data: Data) -> Bool {
        condition.withLock {
            guard !closed else { return false }
            guard queue.count < maximumEvents, queuedBytes + data.count <= maximumBytes else {
                droppedSinceResync += 1
                droppedTotal += 1
                condition.signal()
                return false
            }
            queue.append(data)
            queuedBytes += data.count
            largestQueuedBytes = max(largestQueuedBytes, queuedBytes)
            condition.signal()
            return true
        }
    }

    /// Writes the queue to `socket` until the peer goes away or the server stops; runs on the
    /// connection's thread.
    func run(on socket: ClientSocket) {
        defer { condition.withLock { closed = true } }
        while let batch = next(checking: socket) {
            for message in batch where !socket.send(ArraySlice(message)) { return }
        }
    }

    /// The next messages to write (`resync` first after a drop), waiting for one; `nil` once the peer
    /// closed or the server stopped.
    private func next(checking socket: ClientSocket) -> [Data]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty && droppedSinceResync == 0 {
            // Woken by an offer, or every half second to notice a closed tab or a stopped server.
            guard !condition.wait(until: Date(timeIntervalSinceNow: 0.5)) else { continue }
            condition.unlock()
            let open = Self.isOpen(socket)
            condition.lock()
            guard open else { return nil }
        }
        var batch = droppedSinceResync > 0 ? [InspectorEvent.resync.message()] : []
        batch += queue
        droppedSinceResync = 0
        queue.removeAll(keepingCapacity: true)
        queuedBytes = 0
        return batch
    }

    /// Whether the peer still holds the connection: an event stream's peer sends nothing, so readable means
    /// closed (or bytes it had no business sending).
    private static func isOpen(_ socket: ClientSocket) -> Bool {
        guard !socket.stopSignal.hasFired else { return false }
        if case .timedOut = socket.receive(until: Date()) { return true }
        return false
    }
}
