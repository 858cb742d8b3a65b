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
}
