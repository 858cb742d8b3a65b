import Foundation

/// Tells whether the policy stage finished inside the `send` call that started it (every interceptor and
/// refresh completed in place) or later, from wherever an asynchronous completion ran.
///
/// The dummy answers in place only in the first case; otherwise it delivers on the layer's callback queue,
/// as the real layer always does, so a handler never runs on the thread a token refresh finished on.
final class DummyCallWindow: @unchecked Sendable {
    // `isOpen` and `caller` are guarded by `lock`.
    private let lock = NSLock()
    private var isOpen = true
    private let caller = pthread_self()

    /// Ends the window: the `send` call has returned, so any later finish is asynchronous.
    func close() {
        lock.withLock { isOpen = false }
    }

    /// Whether the caller of `send` is still inside it, on this very thread: the finish is synchronous.
    var isInsideCall: Bool {
        lock.withLock { isOpen && pthread_equal(caller, pthread_self()) != 0 }
    }
}
