import Foundation

/// Hands a stream's elements to its consumer in order and holds the connection back while the consumer
/// is behind: the back-pressure that keeps memory flat. Elements go out on the delegate queue; consumers
/// report batches consumed from anywhere, hence the lock (no consumer code runs under it).
final class StreamDelivery<Element>: Sendable {
    /// Bytes handed over but not consumed beyond which the connection is held back, until half of it.
    static var limit: Int { 256 * 1024 }
    /// An element's cost beyond its bytes, so an endless run of empty events is held back too.
    static var elementOverhead: Int { 64 }

    typealias Consumer = (_ batch: [Element], _ receipt: StreamReceipt) -> Void

    private let backlog = Locked(ConsumerBacklog(limit: StreamDelivery.limit))
    /// Not Sendable (it runs the caller's handlers); called only on the delegate queue, one batch at a time.
    private let consumer: UncheckedSendable<Consumer>

    init(consumer: @escaping Consumer) {
        self.consumer = UncheckedSendable(value: consumer)
    }

    /// Runs `eventHandler` per element on `queue` (serial, so the completion follows the last element)
    /// until the delivery closes.
    convenience init(_ eventHandler: @escaping (Element) -> Void, on queue: DispatchQueue) {
        // Not Sendable: it runs only on `queue`.
        let handler = UncheckedSendable(value: eventHandler)
        self.init { batch, receipt in
            let batch = UncheckedSendable(value: batch)
            queue.async {
                for element in batch.value where receipt.isWanted() { handler.value(element) }
                receipt.consumed()
            }
        }
    }

    var isOpen: Bool { backlog.withLock { !$0.isEnded } }

    /// Hands `batch` (elements with their byte counts) to the consumer on the delegate queue; `pause`
    /// runs at once when the consumer falls behind, `resume` once it caught up or the delivery closed.
    func deliver(
        _ batch: [(Element, Int)], pause: () -> Void, resume: @escaping @Sendable () -> Void
    ) {
        guard !batch.isEmpty else { return }
        let size = batch.reduce(0) { $0 + $1.1 + Self.elementOverhead }
        let holdsBack = backlog.withLock { $0.add(size, resume: resume) }
        let receipt = StreamReceipt(
            isWanted: { [self] in isOpen }, consumed: { [self] in backlog.withLock { $0.remove(size) }?() })
        consumer.value(batch.map(\.0), receipt)
        if holdsBack { pause() }
    }

    /// A reconnection starts delivering: the old connection's pending resume is dropped, so the new one
    /// is held back in turn while the consumer is still behind.
    func connectionOpened() {
        backlog.withLock { $0.resume = nil }
    }

    /// No element is wanted any more; a held connection reads on (into nothing) so it can end.
    func close() {
        backlog.withLock { $0.end() }?()
    }
}

struct StreamReceipt: Sendable {
    /// Whether elements are still wanted; checked before each, so an event handler's cancel stops the batch.
    let isWanted: @Sendable () -> Bool
    let consumed: @Sendable () -> Void
}
