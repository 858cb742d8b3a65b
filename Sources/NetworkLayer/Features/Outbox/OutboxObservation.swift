import Foundation

/// The observers of one ``Outbox``: each gets every event, in order, on the queue it picked.
final class OutboxObservers: Sendable {
    /// The handler is a plain closure, as a layer's handlers are, so a presenter that isn't `Sendable`
    /// can observe: it is only ever called on its queue.
    private struct Observer {
        let queue: DispatchQueue
        let handler: UncheckedSendable<(OutboxEvent) -> Void>
    }

    private let observers = Locked<[UUID: Observer]>([:])

    /// Adds an observer; `first` makes its first event, read under the lock so that no event sent meanwhile
    /// is older than it (the counts are read and sent on the outbox's queue, one change at a time).
    func add(on queue: DispatchQueue, first: () -> OutboxEvent, _ handler: @escaping (OutboxEvent) -> Void)
        -> UUID
    {
        let id = UUID()
        let handler = UncheckedSendable(value: handler)
        // Enqueued under the lock: an event sent meanwhile reaches the queue after this one.
        observers.withLock {
            $0[id] = Observer(queue: queue, handler: handler)
            let event = first()
            queue.async { handler.value(event) }
        }
        return id
    }

    func remove(_ id: UUID) {
        observers.withLock { $0[id] = nil }
    }

    /// Sends `event` to every observer; the handlers run later, on their queues, never under the lock.
    func send(_ event: OutboxEvent) {
        observers.withLock { observers in
            for observer in observers.values {
                let handler = observer.handler
                observer.queue.async { handler.value(event) }
            }
        }
    }
}

/// An observer of an ``Outbox``, added by ``Outbox/addObserver(on:_:)``: it is told until it is
/// cancelled or deinitialized.
public final class OutboxObservation: Sendable {
    private let cancelling: @Sendable () -> Void

    init(_ cancelling: @escaping @Sendable () -> Void) {
        self.cancelling = cancelling
    }

    deinit {
        cancelling()
    }

    /// Stops the observer; events already on its queue may still arrive.
    public func cancel() {
        cancelling()
    }
}
