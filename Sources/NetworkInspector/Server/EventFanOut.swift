import Foundation
import NetworkLayer

/// Where one tab's events go: a bounded queue that drops what doesn't fit.
protocol EventSink: AnyObject, Sendable {
    /// Queues `data` if there is room; `false` (nothing queued, the drop counted) when the queue is full.
    func offer(_ data: Data) -> Bool
    /// Whether the tab went away; its sink is then forgotten.
    var isClosed: Bool { get }
}

/// The open event streams, one per tab: every change goes to each. Its lock owns the list; a message is
/// encoded once, outside it, and only while a tab is open.
final class EventFanOut: Sendable {
    private let list = Locked([any EventSink]())

    /// The sinks now, for the tests.
    var sinks: [any EventSink] { list.withLock { $0 } }

    func add(_ sink: any EventSink) {
        list.withLock { $0.append(sink) }
    }

    /// How many tabs are open.
    var count: Int {
        list.withLock { sinks in
            sinks.removeAll { $0.isClosed }
            return sinks.count
        }
    }

    /// Sends `event` to every open tab.
    func publish(_ event: InspectorEvent) {
        let open = list.withLock { sinks in
            sinks.removeAll { $0.isClosed }
            return sinks
        }
        guard !open.isEmpty else { return }
        let message = event.message()
        for sink in open { _ = sink.offer(message) }
    }
}
