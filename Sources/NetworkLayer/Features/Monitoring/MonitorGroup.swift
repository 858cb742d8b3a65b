import Foundation

/// A layer's monitors and the serial queue their events run on, in order, away from the main queue, the
/// session's delegate queue and the handlers' queue.
package final class MonitorGroup: Sendable {
    private let monitors: [any NetworkMonitor]
    private let queue: DispatchQueue
    /// Whether any monitor acts on the events of attempts (built, started, received, retried); when none
    /// does, a request takes one hop to the monitors' queue instead of three.
    package let wantsAttemptEvents: Bool

    /// `monitors` on `queue`, a layer's serial monitors' queue; `nil` without monitors: then nothing is
    /// measured, allocated or dispatched for them.
    package init?(_ monitors: [any NetworkMonitor], on queue: DispatchQueue = MonitorGroup.makeQueue()) {
        guard !monitors.isEmpty else { return nil }
        self.monitors = monitors
        self.queue = queue
        wantsAttemptEvents = monitors.contains { $0.observesAttempts }
    }

    /// A layer's serial monitors' queue: its own monitors' and those of its requests.
    package static func makeQueue() -> DispatchQueue {
        DispatchQueue(label: "NetworkLayer.monitors", target: Queues.work)
    }

    /// The group for one request with monitors of its own: `layer`'s monitors, then `extra`, on the
    /// layer's queue `queue` even when the layer has no monitors (so a monitor given to several requests,
    /// which relies on its events arriving on one serial queue, still may). `layer` alone when `extra` is
    /// empty.
    package static func forRequest(
        layer: MonitorGroup?, extra: [any NetworkMonitor], on queue: DispatchQueue
    ) -> MonitorGroup? {
        guard !extra.isEmpty else { return layer }
        return MonitorGroup((layer?.monitors ?? []) + extra, on: queue)
    }

    /// Runs `event` for every monitor, in order, on the monitors' queue, outside any request: after
    /// everything emitted before it (tests use it to wait for the queue).
    package func emit(_ event: @escaping @Sendable (any NetworkMonitor) -> Void) {
        queue.async { [monitors] in
            for monitor in monitors { event(monitor) }
        }
    }

    /// A channel for one request's events.
    package func channel() -> Channel {
        Channel(group: self)
    }

    /// One request's events, in order, and none after its `didFinish`: a reply or an attempt that raced
    /// a `cancel()` is not reported once the monitors have been told the request was cancelled.
    package final class Channel: @unchecked Sendable {
        private let group: MonitorGroup
        // Read and written only on the group's serial queue.
        private var isFinished = false

        fileprivate init(group: MonitorGroup) {
            self.group = group
        }

        /// Runs the attempt event `event` for every monitor, unless the request has finished or no
        /// monitor acts on attempt events.
        package func emit(_ event: @escaping @Sendable (any NetworkMonitor) -> Void) {
            guard group.wantsAttemptEvents else { return }
            group.queue.async { [self] in
                guard !isFinished else { return }
                for monitor in group.monitors { event(monitor) }
            }
        }

        /// Runs the `didFinish` `event` for every monitor; nothing of this request is reported after it.
        package func finish(_ event: @escaping @Sendable (any NetworkMonitor) -> Void) {
            group.queue.async { [self] in
                guard !isFinished else { return }
                isFinished = true
                for monitor in group.monitors { event(monitor) }
            }
        }
    }

    private static let lastID = Locked<UInt64>(0)

    /// A request identity for the events, unique within the process.
    package static func nextID() -> UInt64 {
        lastID.withLock { id in
            id += 1
            return id
        }
    }
}

extension MonitoredRequest {
    /// The request an event belongs to; test doubles make them too.
    package init(method: HTTPMethod, url: URL?) {
        self.init(id: MonitorGroup.nextID(), method: method, url: url)
    }
}

extension MonitoredAttempt {
    /// Attempt `number` of `request`.
    package init(of request: MonitoredRequest, number: Int) {
        self.init(request: request, number: number)
    }
}
