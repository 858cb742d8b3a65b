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
    ///
    /// A request made by code that runs later (a presenter's `Task`, an interceptor that completes
    /// later) is not here yet when the test reads it right after starting that code: wait for it with
    /// ``nextPendingRequest(timeout:)``.
    public var pendingRequests: [DummyPendingRequest] {
        state.withLock { $0.held.pending }
    }

    /// The oldest held request this method has not returned yet, waiting up to `timeout` seconds for
    /// one to be held; `nil` if none is held in time. Each held request is returned once, in the order
    /// they were held; one released or cancelled before it was returned is skipped.
    ///
    /// For code that makes its request later than the call that starts it, such as an `async`
    /// presenter's `Task`: the test waits without polling, and resumes as soon as the request is held.
    ///
    /// ```swift
    /// network.holdsReplies = true
    /// let loading = Task { await model.load() }
    /// let held = await network.nextPendingRequest()
    /// XCTAssertTrue(model.isLoading)
    /// held?.succeed(with: [todo])
    /// await loading.value
    /// XCTAssertEqual(model.todos, [todo])
    /// ```
    ///
    /// A task cancelled while it waits gets `nil` at once.
    ///
    /// - Parameter timeout: The longest wait, in seconds.
    /// - Returns: The held request, or `nil` if none was held in time.
    public func nextPendingRequest(timeout: TimeInterval = 5) async -> DummyPendingRequest? {
        let state = state
        let id = state.withLock { $0.held.makeWaiterID() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: DummyHeldRequests.Waiter) in
                let taken = state.withLock { $0.held.take(orWait: continuation, id: id) }
                if let taken { return continuation.resume(returning: taken) }
                // Keeps the state (not the layer) until then, so a waiter is always resumed.
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                    state.withLock { $0.held.removeWaiter(id) }?.resume(returning: nil)
                }
            }
        } onCancel: {
            state.withLock { $0.held.removeWaiter(id) }?.resume(returning: nil)
        }
    }
}
