import Foundation
import NetworkLayer

/// The outboxes attached to an inspector: their queues as one Outbox record, rebuilt on each of their
/// events and when a request that may be an item's attempt starts or ends. Its lock owns the list.
final class OutboxWatcher: Sendable {
    private struct Attached {
        weak var outbox: Outbox?
        let observation: OutboxObservation
    }

    private let store: InspectorStore
    private let publish: @Sendable (InspectorEvent) -> Void
    private let attached = Locked([Attached]())
    /// Where the outboxes' events arrive: serial, so records go out in the order they were made.
    private let queue = DispatchQueue(label: "NetworkInspector.outbox")

    init(store: InspectorStore, publish: @escaping @Sendable (InspectorEvent) -> Void) {
        self.store = store
        self.publish = publish
    }

    func attach(_ outbox: Outbox) {
        // The observation holds the watcher weakly: an inspector let go stops observing.
        let observation = outbox.addObserver(on: queue) { [weak self] _ in self?.rebuild() }
        attached.withLock { $0.append(Attached(outbox: outbox, observation: observation)) }
    }

    /// Rebuilds the record soon, on the watcher's queue; does nothing when no outbox is attached.
    func refresh() {
        guard !attached.withLock(\.isEmpty) else { return }
        queue.async { [weak self] in self?.rebuild() }
    }

    private func rebuild() {
        let outboxes = attached.withLock { $0.compactMap(\.outbox) }
        let sending = store.unfinishedIdempotencyKeys()
        let items = outboxes.flatMap(\.items).map { item in
            OutboxRecord.Item(
                id: item.id.uuidString, method: item.method, url: item.urlString,
                state: item.deadLetter != nil
                    ? "deadLetter" : sending.contains(item.idempotencyKey) ? "sending" : "waiting",
                attempts: item.attempts)
        }
        let record = OutboxRecord(
            waiting: items.count { $0.state == "waiting" }, sending: items.count { $0.state == "sending" },
            deadLetters: items.count { $0.state == "deadLetter" }, items: items)
        store.setOutbox(record)
        publish(.outbox(record))
    }
}
