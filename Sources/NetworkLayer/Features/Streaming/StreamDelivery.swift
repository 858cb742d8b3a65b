import Foundation

/// Hands a stream's elements to its consumer in order, and holds the connection back while the consumer
/// is behind: the back-pressure that keeps memory flat under a slow event handler or a consumer that
/// stops iterating.
///
/// Elements are handed over on the session's delegate queue; the consumer (the event handler on the
/// callback queue, or an async iterator) reports each batch consumed from wherever it ran. The counts
/// are shared between those threads, hence the lock; no consumer code runs under it.
final class StreamDelivery<Element>: @unchecked Sendable {
    /// Bytes handed over but not yet consumed beyond which the connection is held back. It reads on
    /// once the consumer is down to half of it.
    static var limit: Int { 256 * 1024 }
    /// What an element costs beyond its bytes (the value itself, its strings' storage): an endless run of
    /// empty events must be held back too.
    static var elementOverhead: Int { 64 }

    /// Takes one batch (on the delegate queue) and hands it on without blocking; it tells the receipt
    /// once it is done with it, from any thread.
    typealias Consumer = (_ batch: [Element], _ receipt: StreamReceipt) -> Void

    private struct Flow {
        var pending = 0
        var isClosed = false
        /// Set while the connection is held back: what lets it read on.
        var resume: (@Sendable () -> Void)?
    }

    private let flow = Locked(Flow())
    private let consumer: Consumer

    init(consumer: @escaping Consumer) {
        self.consumer = consumer
    }

    /// Whether elements are still wanted: not after the completion ran or the stream was cancelled.
    var isOpen: Bool { flow.withLock { !$0.isClosed } }

    /// Hands `batch` (elements with the bytes each took) to the consumer, on the delegate queue. When the
    /// consumer falls behind, `pause` runs there and then, and `resume` later, once it has caught up or
    /// the delivery closed.
    func deliver(
        _ batch: [(Element, Int)], pause: () -> Void, resume: @escaping @Sendable () -> Void
    ) {
        guard !batch.isEmpty else { return }
        let size = batch.reduce(0) { $0 + $1.1 + Self.elementOverhead }
        let holdsBack: Bool = flow.withLock {
            guard !$0.isClosed else { return false }
            $0.pending += size
            guard $0.pending > Self.limit, $0.resume == nil else { return false }
            $0.resume = resume
            return true
        }
        consumer(
            batch.map(\.0),
            StreamReceipt(isWanted: { [self] in isOpen }, consumed: { [self] in consumed(size) }))
        if holdsBack { pause() }
    }

    /// A new connection of the stream (a reconnection) starts delivering. The last one has ended, and its
    /// pause with it: what would have lifted that pause is dropped, so that the new connection is held
    /// back in turn while the consumer is still behind.
    func connectionOpened() {
        flow.withLock { $0.resume = nil }
    }

    /// No element is wanted any more: the completion is about to run, or the stream was cancelled. A held
    /// connection reads on (into nothing) so that it can end.
    func close() {
        let resume: (@Sendable () -> Void)? = flow.withLock { flow in
            flow.isClosed = true
            defer { flow.resume = nil }
            return flow.resume
        }
        resume?()
    }

    private func consumed(_ size: Int) {
        let resume: (@Sendable () -> Void)? = flow.withLock { flow in
            flow.pending -= size
            guard flow.pending <= Self.limit / 2 else { return nil }
            defer { flow.resume = nil }
            return flow.resume
        }
        resume?()
    }
}

/// What a consumer tells about one batch.
struct StreamReceipt: Sendable {
    /// Whether elements are still wanted; checked before each one, so a cancel from an event handler
    /// stops the rest of its batch.
    let isWanted: @Sendable () -> Bool
    /// The consumer is done with the batch.
    let consumed: @Sendable () -> Void
}
