import Foundation
import NetworkLayer

/// An outbox's items kept in memory: what `Outbox.inMemory(name:layer:options:)` stores in.
final class InMemoryOutboxStorage: OutboxStorage {
    private let stored = Locked<[UUID: OutboxItem]>([:])

    func load() -> OutboxContents {
        (items: [], damaged: [], nextSequence: 1)
    }

    func save(_ item: OutboxItem, flushToDevice: Bool) throws(OutboxError) {
        stored.withLock { $0[item.id] = item }
    }

    func remove(_ item: OutboxItem) {
        stored.withLock { $0[item.id] = nil }
    }

    func close() {}
}

extension Outbox {
    /// An outbox that keeps its items in memory, for a presenter's test: with a ``DummyNetworkLayer``,
    /// a test says "queued, shows pending; delivered, shows sent; rejected, shows the error" without a
    /// disk or a network. Its delivery rules are the real outbox's. Give the dummy a ``TestClock``: on a
    /// dummy without one, whose waits are over at once, a failed attempt's wait ends only with
    /// `flush()`, so a failing stub is not sent again in a busy loop.
    ///
    /// - Parameters:
    ///   - name: The outbox's name.
    ///   - layer: What sends the items: a ``DummyNetworkLayer`` with stubs, usually.
    ///   - options: Backoff, limits, expiry, accounts; the durability options do nothing here.
    /// - Returns: The outbox, delivering at once.
    public static func inMemory(
        name: String = "outbox", layer: NetworkLayer, options: OutboxOptions = OutboxOptions()
    ) -> Outbox {
        Outbox(
            directory: URL(fileURLWithPath: "/dev/null"), name: name, storage: InMemoryOutboxStorage(),
            layer: layer, options: options)
    }
}
