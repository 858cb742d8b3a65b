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
    /// What is held is each attempt the pipeline sends, as the real layer sends it. So with a retry
    /// policy, a release the policy retries (a timeout, a 503) holds the retry in its turn: it appears in
    /// ``pendingRequests`` and ``recordedRequests``, and the handler runs when a release ends the
    /// request. And with an interceptor that completes later instead of in place, nothing is recorded or
    /// held until it has: wait for the request to appear in ``pendingRequests``.
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
