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
public final class DummyTask: NetworkTask, @unchecked Sendable {
    /// The request as recorded, or `nil` when the layer refused it (see ``DummyNetworkLayer/refusedRequests``).
    public let request: RecordedRequest?

    // Everything mutable is guarded by `lock`; handlers never run while it is held. The error handler is
    // dropped once a handler has run, as the real layer's task does, so a caller that keeps the task
    // does not keep alive what its handlers captured.
    private let lock = NSLock()
    private var errorHandler: ((NetworkError) -> Void)?
    private let onFirstCancel: @Sendable () -> Void
    private var phase = Phase.idle
    private var cancels = 0
    /// Tells the layer's monitors that the request was cancelled, when a cancel replaces a delivery.
    private var reportCancel: (() -> Void)?

    private enum Phase {
        case idle
        /// A delivery is scheduled on the delivery queue; `cancel()` may still replace it.
        case scheduled(() -> Void)
        case delivered
    }

    init(
        request: RecordedRequest?,
        errorHandler: @escaping (NetworkError) -> Void,
        onFirstCancel: @escaping @Sendable () -> Void
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

    /// Records the cancellation; a delivery still pending becomes `.cancelled` for the error handler.
    public func cancel() {
        let isFirst: Bool = lock.withLock {
            cancels += 1
            if case .scheduled = phase, let errorHandler {
                let reportCancel = reportCancel
                phase = .scheduled {
                    reportCancel?()
                    errorHandler(.cancelled)
                }
            }
            return cancels == 1
        }
        if isFirst { onFirstCancel() }
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
