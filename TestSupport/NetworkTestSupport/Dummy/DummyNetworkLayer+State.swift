import Foundation
import NetworkLayer

extension DummyNetworkLayer {
    /// The value a request succeeds with when no per-request stub matches and its type is the one the
    /// request expects. Any value: `[Employee]`, `Employee`, `EmptyResponse()`.
    public var successResponse: Any? {
        get { state.withLock { $0.successResponse } }
        set { state.withLock { $0.successResponse = newValue } }
    }

    /// The error a request fails with when no per-request stub matches and ``successResponse`` does not
    /// answer it. `network.errorResponse = "Unable to parse response"` sets `.custom(...)`.
    public var errorResponse: NetworkError? {
        get { state.withLock { $0.errorResponse } }
        set { state.withLock { $0.errorResponse = newValue } }
    }

    /// Where handlers run: `nil` (the default) runs them immediately, where each answer is settled (before
    /// the request method returns for a stubbed answer); a queue runs them asynchronously on it, for code
    /// that must not be re-entered. A change applies to requests made after it; ``reset()`` leaves it
    /// alone. The inherited `callbackQueue` and `deliversImmediately` keep the values `init` gave them
    /// (they are constants of `NetworkLayer`), so pass the queue to `init` when code under test reads
    /// them.
    public var deliveryQueue: DispatchQueue? {
        get { state.withLock { $0.deliveryQueue } }
        set { state.withLock { $0.deliveryQueue = newValue } }
    }

    /// The progress every download and upload reports before its outcome, in order, on the delivery
    /// queue. `nil` (the default) reports one call with every byte before a success (the stubbed bytes or
    /// file for a download, the body for an upload), as the real layer's last call does.
    public var scriptedProgress: [TransferProgress]? {
        get { state.withLock { $0.scriptedProgress } }
        set { state.withLock { $0.scriptedProgress = newValue } }
    }

    /// Every request the layer answered, in call order, as the real layer would have sent it.
    public var recordedRequests: [RecordedRequest] {
        state.withLock { $0.recorded }
    }

    /// Requests the real layer would have refused to send (invalid URL, unencodable body, invalid
    /// header), in call order. They are not in ``recordedRequests``.
    public var refusedRequests: [RefusedRequest] {
        state.withLock { $0.refused }
    }

    /// The recorded requests whose task was cancelled, in the order of each task's first `cancel()`.
    /// Cancelling a refused request's task is counted on its ``DummyTask`` only.
    public var cancelledRequests: [RecordedRequest] {
        state.withLock { $0.cancelled }
    }

    /// Clears ``successResponse``, ``errorResponse``, ``scriptedProgress``, the per-request stubs and every
    /// recording (recorded, refused and cancelled requests). ``deliveryQueue``, ``holdsReplies`` and the
    /// ``pendingRequests`` are kept: a held request still waits for its answer, so its handler runs
    /// exactly once; a task waiting in ``nextPendingRequest(timeout:)`` waits on.
    public func reset() {
        state.withLock { state in
            state = DummyState(
                deliveryQueue: state.deliveryQueue, holdsReplies: state.holdsReplies, held: state.held)
        }
    }
}
