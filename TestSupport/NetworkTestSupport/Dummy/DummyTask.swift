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
/// Its outcome is decided by the real layer's own task, the latch that lets exactly one handler run
/// exactly once. When the layer delivers synchronously, the handler has run before the task is returned,
/// so `cancel()` only records. With a `deliveryQueue`, a `cancel()` before the delivery replaces it: the
/// error handler receives `.cancelled`, exactly once, on that queue, and the success handler never runs.
/// A held request (see ``DummyNetworkLayer/holdsReplies``) receives `.cancelled` from `cancel()` at
/// once, on the caller's thread (on the delivery queue when there is one), and releasing it afterwards
/// does nothing.
public final class DummyTask: NetworkTask, Sendable {
    /// The request as recorded, or `nil` when the layer refused it (see ``DummyNetworkLayer/refusedRequests``).
    public let request: RecordedRequest?

    private struct State {
        var cancels = 0
        /// The layer's task, once the pipeline has returned it.
        var pipelineTask: (any NetworkTask)?
    }

    /// Nothing is called while its lock is held.
    private let state = Locked(State())
    private let onFirstCancel: @Sendable (DummyTask) -> Void

    init(request: RecordedRequest?, onFirstCancel: @escaping @Sendable (DummyTask) -> Void) {
        self.request = request
        self.onFirstCancel = onFirstCancel
    }

    /// How many times ``cancel()`` was called.
    public var cancelCount: Int {
        state.withLock { $0.cancels }
    }

    /// Whether ``cancel()`` was called at least once.
    public var isCancelled: Bool {
        cancelCount > 0
    }

    /// Records the cancellation and cancels the request: a delivery still pending becomes `.cancelled`
    /// for the error handler, and a held request receives `.cancelled` now.
    public func cancel() {
        let (isFirst, pipelineTask) = state.withLock { state in
            state.cancels += 1
            return (state.cancels == 1, state.pipelineTask)
        }
        if isFirst { onFirstCancel(self) }
        // Delivered immediately, `.cancelled` runs here, on this thread, as a release would.
        pipelineTask?.cancel()
    }

    /// The layer's task's: a waiting request's priority moves it in the per-origin queue, as in the real
    /// layer (see `RequestScheduling`).
    public var priority: RequestPriority {
        get { state.withLock { $0.pipelineTask }?.priority ?? .default }
        set { state.withLock { $0.pipelineTask }?.priority = newValue }
    }

    /// Links the layer's task; a task cancelled before (from another thread) cancels it at once.
    func attach(_ pipelineTask: any NetworkTask) {
        let wasCancelled = state.withLock { state in
            state.pipelineTask = pipelineTask
            return state.cancels > 0
        }
        if wasCancelled { pipelineTask.cancel() }
    }
}
