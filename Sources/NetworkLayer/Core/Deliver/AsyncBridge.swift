/// Joins one `async` request to the callback funnel: starts it, passes a `Task`'s cancellation on, and
/// resumes the caller exactly once. The cancellation handler may run at any time, even before the request
/// is sent or while `send` runs; the handlers may run inside `send`.
final class AsyncBridge<Value>: Sendable {
    /// Why unchecked: `NetworkResponse<Value>` isn't always `Sendable`, but it is handed over once.
    typealias Outcome = UncheckedSendable<Result<NetworkResponse<Value>, NetworkError>>

    private let cancelling = DeferredCancel()
    /// Taken by the first outcome: a layer's subclass that called a handler twice can't resume it twice.
    private let continuation = Locked<CheckedContinuation<Outcome, Never>?>(nil)

    /// Sends `request` unless the task was already cancelled; `continuation` is resumed once either way.
    /// Not isolated, so its handlers are plain closures that may run on any queue.
    func start(
        _ request: NetworkRequest<Value>, on layer: NetworkLayer,
        continuation: CheckedContinuation<Outcome, Never>
    ) {
        self.continuation.withLock { $0 = continuation }
        guard !cancelling.isCancelled else { return finish(.failure(.cancelled)) }
        // Why in place: a hop through the (often busy main) callback queue would delay the await for nothing.
        var request = request
        request.deliversImmediately = true
        let task = layer.send(
            request, successHandler: { self.finish(.success($0)) },
            errorHandler: { self.finish(.failure($0)) })
        // A cancel that came while `send` ran cancels the request now.
        cancelling.attach { task.cancel() }
    }

    /// The task's cancellation handler: before the request starts it only marks the bridge, so `start`
    /// sends nothing.
    func cancel() {
        cancelling.cancel()
    }

    private func finish(_ result: Result<NetworkResponse<Value>, NetworkError>) {
        continuation.withLock { $0.take() }?.resume(returning: UncheckedSendable(value: result))
    }
}
