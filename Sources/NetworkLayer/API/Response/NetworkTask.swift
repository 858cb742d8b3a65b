/// A request in flight, returned by every request method of ``NetworkLayer``; `Sendable`, so it can be
/// cancelled from any queue.
public protocol NetworkTask: AnyObject, Sendable {
    /// Cancels the request.
    ///
    /// If no handler has run yet (even when the reply arrived but wasn't delivered), the error handler
    /// receives ``NetworkError/cancelled`` once, on the callback queue. Afterwards it does nothing.
    func cancel()
}
