/// A request in flight, returned by every request method of ``NetworkLayer``; `Sendable`, so it can be
/// cancelled from any queue.
public protocol NetworkTask: AnyObject, Sendable {
    /// Cancels the request.
    ///
    /// If no handler has run yet (even when the reply arrived but wasn't delivered), the error handler
    /// receives ``NetworkError/cancelled`` once, on the callback queue. Afterwards it does nothing.
    func cancel()

    /// How soon the request goes out while it waits for its server (see ``RequestScheduling``): setting it
    /// moves a waiting request ahead of or behind the others. It starts as the request's
    /// ``NetworkRequest/priority``.
    var priority: RequestPriority { get set }
}

extension NetworkTask {
    /// Always ``RequestPriority/default`` for a task that can't wait; setting it does nothing.
    public var priority: RequestPriority {
        get { .default }
        set {}
    }
}
