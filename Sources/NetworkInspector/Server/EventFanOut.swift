import Foundation
import NetworkLayer

/// The open event streams, one per tab: every change goes to each. Its lock owns the list; a message is
/// encoded once, outside it, and only while a tab is open.
final class EventFanOut: Sendable {
    private let list = Locked([EventTab]())

    /// The tabs now, for the tests.
    var tabs: [EventTab] { list.withLock { $0 } }

    func add(_ tab: EventTab) {
        list.withLock { $0.append(tab) }
    }

    /// How many tabs are open.
    var count: Int {
        list.withLock { tabs in
            tabs.removeAll { $0.isClosed }
            return tabs.count
        }
    }

    /// Sends `event` to every open tab.
    func publish(_ event: InspectorEvent) {
        let open = list.withLock { tabs in
            tabs.removeAll { $0.isClosed }
            return tabs
        }
        guard !open.isEmpty else { return }
        let message = event.message()
        for tab in open { tab.offer(message) }
    }
}
