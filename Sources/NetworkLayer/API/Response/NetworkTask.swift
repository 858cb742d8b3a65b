/// A request in flight, returned by every request method of ``NetworkLayer``.
///
/// A task is `Sendable`, so it can be cancelled from any queue.
public protocol NetworkTask: AnyObject, Sendable {
    /// Cancels the request.
    ///
    /// If no handler has run yet, the error handler receives ``NetworkError/cancelled``, exactly once,
    /// on the layer's callback queue; this holds even when the reply has already arrived but has not
    /// been delivered. After a handler has run, `cancel()` does nothing.
    func cancel()
}
