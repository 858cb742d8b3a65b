import Foundation
import NetworkLayer

/// Where one tab's events go: a streamed reply with a bounded queue.
protocol EventSink: AnyObject, Sendable {
    /// Queues `data` if there is room; `false` (nothing queued) when the queue is full.
    func offer(_ data: Data) -> Bool
    /// Whether the tab went away; its sink is then forgotten.
    var isClosed: Bool { get }
}

/// The open event streams, one per tab: every change goes to each. A tab that stops reading fills its
/// sink's bounded queue; the events it can't take are dropped and counted, and once there is room it is
/// sent `resync` first, so the page fetches the snapshot again. Its lock owns the list and the flags.
final class EventFanOut: Sendable {
    private final class Tab: Sendable {
        let sink: any EventSink
        /// Events dropped since the last resync that reached the tab; owned by the fan-out's lock.
        let dropped = Locked(0)

        init(sink: any EventSink) {
            self.sink = sink
        }
    }

    private let tabs = Locked([Tab]())
    /// Events dropped over every tab, for the tests.
    private let droppedTotal = Locked(0)

    func add(_ sink: any EventSink) {
        tabs.withLock { $0.append(Tab(sink: sink)) }
    }

    var count: Int { tabs.withLock { $0.count } }
    var droppedEvents: Int { droppedTotal.withLock { $0 } }

    /// Sends `event` to every tab; encodes it only when one is open.
    func publish(_ event: InspectorEvent) {
        let open = tabs.withLock { tabs in
            tabs.removeAll { $0.sink.isClosed }
            return tabs
        }
        guard !open.isEmpty else { return }
        let message = event.message()
        for tab in open { send(message, to: tab) }
    }

    private func send(_ message: Data, to tab: Tab) {
        let delivered = tab.dropped.withLock { dropped in
            if dropped > 0 {
                guard tab.sink.offer(InspectorEvent.resync.message()) else { return false }
                dropped = 0
            }
            return tab.sink.offer(message)
        }
        guard !delivered else { return }
        tab.dropped.withLock { $0 += 1 }
        droppedTotal.withLock { $0 += 1 }
    }
}
