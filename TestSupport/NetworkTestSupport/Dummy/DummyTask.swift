import Foundation
import NetworkLayer

/// The task ``DummyNetworkLayer`` returns from every request method; it records its cancellation.
///
/// The request methods return it as `NetworkTask`; cast to read what it recorded:
///
/// ```swift
/// let task = network.get(urlString: "/employees", successHandler: show, errorHandler: fail) as? DummyTask
/// presenter.cancel()
/// XCTAssertEqual(task?.cancelCount, 1)
/// ```
///
/// When the layer delivers synchronously, the handler has run before the task is returned, so
/// `cancel()` only records. With a `deliveryQueue`, a `cancel()` before the delivery replaces it: the
/// error handler receives `.cancelled`, exactly once, on that queue, and the success handler never runs.
/// A held request (see ``DummyNetworkLayer/holdsReplies``) receives `.cancelled` from `cancel()` at
/// once, on the caller's thread (on the delivery queue when there is one), and releasing it afterwards
/// does nothing.
public final class DummyTask: NetworkTask, @unchecked Sendable {
    /// The request as recorded, or `nil` when the layer refused it (see ``DummyNetworkLayer/refusedRequests``).
    public let request: RecordedRequest?

    // Everything mutable is guarded by `lock`; handlers never run while it is held. The error handler is
    // dropped once a handler has run, as the real layer's task does, so a caller that keeps the task
    // does not keep alive what its handlers captured.
    private let lock = NSLock()
    private var errorHandler: ((NetworkError) -> Void)?
    private let onFirstCancel: @Sendable (DummyTask) -> Void
    private var phase = Phase.idle
    private var cancels = 0
    private var storedHeldQueue: DispatchQueue?
    /// Tells the layer's monitors that the request was cancelled, when a cancel replaces a delivery.
    private var reportCancel: (() -> Void)?
    /// Cancelled after the request was recorded but before its reply was scheduled: the reply, when it
    /// comes, is delivered as `.cancelled`, as the real layer's cancel wins over a reply not yet delivered.
    private var cancelledBeforeReply = false

    private enum Phase {
        case idle
        /// Held until the test releases it; `cancel()` delivers `.cancelled` instead, on ``heldQueue``.
        case held
        /// A delivery is scheduled on the delivery queue; `cancel()` may still replace it.
        case scheduled(() -> Void)
        case delivered
    }

    init(
        request: RecordedRequest?,
        errorHandler: @escaping (NetworkError) -> Void,
        onFirstCancel: @escaping @Sendable (DummyTask) -> Void
    ) {
        self.request = request
        self.errorHandler = errorHandler
        self.onFirstCancel = onFirstCancel
    }

    /// How many times ``cancel()`` was called.
    public var cancelCount: Int {
        lock.withLock { cancels }
    }

    /// Whether ``cancel()`` was called at least once.
    public var isCancelled: Bool {
        cancelCount > 0
    }

    /// Records the cancellation; a delivery still pending becomes `.cancelled` for the error handler, and
    /// a held request receives `.cancelled` now.
    public func cancel() {
        let (isFirst, wasHeld, queue): (Bool, Bool, DispatchQueue?) = lock.withLock {
            cancels += 1
            switch phase {
            case .scheduled:
                if let errorHandler {
                    let reportCancel = reportCancel
                    phase = .scheduled {
                        reportCancel?()
                        errorHandler(.cancelled)
                    }
                }
            case .held:
                // The cancellation takes the hold's place; `claimHold()` now finds nothing to release.
                phase = .idle
                return (cancels == 1, true, storedHeldQueue)
            case .idle:
                cancelledBeforeReply = true
            case .delivered:
                break
            }
            return (cancels == 1, false, nil)
        }
        // The layer forgets a held request before its handler runs, so the handler sees it gone.
        if isFirst { onFirstCancel(self) }
        if wasHeld { deliver(Result<Void, NetworkError>.failure(.cancelled), to: { _ in }, on: queue) }
    }

    /// Holds the request: nothing is delivered until ``claimHold()`` succeeds and the caller delivers,
    /// or `cancel()` delivers `.cancelled`.
    func hold(deliveringOn queue: DispatchQueue?) {
        lock.withLock {
            phase = .held
            storedHeldQueue = queue
        }
    }

    /// Where a held request is answered: the layer's delivery queue when it was held; `nil` means on the
    /// thread that releases or cancels it.
    var heldQueue: DispatchQueue? {
        lock.withLock { storedHeldQueue }
    }

    /// Whether the request is held right now: not released, not cancelled.
    var isHeldNow: Bool {
        lock.withLock {
            if case .held = phase { return true }
            return false
        }
    }

    /// Takes the hold for a release: `true` once, for the first caller, unless `cancel()` came first.
    func claimHold() -> Bool {
        lock.withLock {
            guard case .held = phase else { return false }
            phase = .idle
            return true
        }
    }

    /// Hands `result` to its handler: right now when `queue` is `nil`, else asynchronously on `queue`.
    /// `report` is told the outcome the handler receives, just before it runs.
    func deliver<Value>(
        _ result: Result<Value, NetworkError>,
        to successHandler: @escaping (Value) -> Void,
        on queue: DispatchQueue?,
        report: ((Result<Value, NetworkError>) -> Void)? = nil
    ) {
        let delivery: () -> Void
        let result = lock.withLock { cancelledBeforeReply } ? .failure(.cancelled) : result
        switch result {
        case .success(let value):
            delivery = {
                report?(result)
                successHandler(value)
            }
        case .failure(let error):
            let errorHandler = lock.withLock { self.errorHandler }
            delivery = {
                report?(result)
                errorHandler?(error)
            }
        }
        guard let queue else {
            lock.withLock {
                phase = .delivered
                errorHandler = nil
            }
            delivery()
            return
        }
        lock.withLock {
            phase = .scheduled(delivery)
            reportCancel = report.map { report in { report(.failure(.cancelled)) } }
        }
        queue.async { self.runScheduledDelivery() }
    }

    private func runScheduledDelivery() {
        let delivery: (() -> Void)? = lock.withLock {
            guard case .scheduled(let delivery) = phase else { return nil }
            phase = .delivered
            errorHandler = nil
            reportCancel = nil
            return delivery
        }
        delivery?()
    }
}
