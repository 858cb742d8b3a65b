import Foundation
import NetworkLayer

extension DummyNetworkLayer {
    /// Whether requests wait for the test to answer them. `false` (the default) answers every request
    /// before the request method returns.
    ///
    /// When `true`, each request is recorded (in ``recordedRequests``) and held: it appears in
    /// ``pendingRequests`` and its handler runs only when the test releases it with
    /// ``DummyPendingRequest/succeed(with:)``, ``DummyPendingRequest/fail(with:)`` or
    /// ``DummyPendingRequest/respond()``, or when its task is cancelled (the error handler then receives
    /// `.cancelled` at once). So a test can see a presenter's loading state, then release the reply and
    /// see the result. A request the real layer would refuse (invalid URL, header or body) is never
    /// held: it fails at once, as it does when not holding.
    ///
    /// A change applies to requests made after it; ``reset()`` leaves it alone.
    public var holdsReplies: Bool {
        get { state.withLock { $0.holdsReplies } }
        set { state.withLock { $0.holdsReplies = newValue } }
    }

    /// The held requests not yet released or cancelled, in call order. See ``holdsReplies``.
    public var pendingRequests: [DummyPendingRequest] {
        state.withLock { $0.pending }
    }

    /// The pending request that answers `request`'s handlers: `answer` turns the test's reply into the
    /// result the handler receives, by the same rules as an unheld request.
    func heldRequest<Value>(
        _ request: RecordedRequest, task: DummyTask, expected: DummyExpectation<Value>,
        successHandler: @escaping (NetworkResponse<Value>) -> Void
    ) -> DummyPendingRequest {
        // Weak: the layer's state lists its pending requests, and one kept by a test must not keep the
        // layer's state alive (nor can it answer from stubs once the layer is gone).
        let answer = { [weak state] (reply: DummyPendingRequest.Reply) in
            let result: Result<NetworkResponse<Value>, NetworkError>
            switch reply {
            case .value(let value):
                result = expected.response(request, value, 200, [:]) {
                    expected.mismatch(request, "it was released with", value)
                }
            case .failure(let error):
                result = .failure(error)
            case .stubs:
                if let source = state?.withLock({ $0.source(for: request) }) {
                    result = source.result(for: request, expecting: expected)
                } else {
                    let gone = "respond() has no stubs to answer from: its DummyNetworkLayer is gone"
                    result = .failure(expected.mismatch(request, gone))
                }
            }
            task.deliver(result, to: successHandler, on: task.heldQueue)
        }
        return DummyPendingRequest(request: request, task: task, answer: answer) { [weak state] pending in
            state?.withLock { $0.pending.removeAll { $0 === pending } }
        }
    }
}
