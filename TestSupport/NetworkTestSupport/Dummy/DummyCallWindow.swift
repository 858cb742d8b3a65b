import Foundation
import NetworkLayer

/// Tells whether a dummy's answer comes while the code that asked for it is still inside the call on this
/// very thread: the `send` call that started the request, or a test releasing or cancelling a held reply
/// (several threads may do that at once).
///
/// The dummy delivers in place only then; otherwise (an interceptor or refresh that completed later,
/// elsewhere) it delivers on the layer's callback queue, as the real layer always does, so a handler never
/// runs on the thread a token refresh finished on.
final class DummyCallWindow: Sendable {
    /// The threads inside a call now, once per call.
    private let callers: Locked<[pthread_t]>
    private let sender = pthread_self()
    /// What runs once the `send` call returns; `nil` once it has.
    private let afterCallWork = Locked<[@Sendable () -> Void]?>([])

    init() {
        callers = Locked([sender])
    }

    /// Ends the window of the `send` call, which has returned: a later answer is asynchronous. Runs what
    /// waited for the call to return.
    func close() {
        leave(sender)
        let waiting = afterCallWork.withLock { work in
            defer { work = nil }
            return work ?? []
        }
        for body in waiting { body() }
    }

    /// Runs `body` once the `send` call has returned, at once if it has: what wakes a test must find
    /// the request as the caller has it, its task returned and known to `cancelAll()`.
    func afterCall(_ body: @escaping @Sendable () -> Void) {
        let now = afterCallWork.withLock { work in
            guard work != nil else { return true }
            work?.append(body)
            return false
        }
        if now { body() }
    }

    /// Runs `body` with the window open on this thread: a test's release or cancel answers in place.
    func reopen(_ body: () -> Void) {
        let thread = pthread_self()
        callers.withLock { $0.append(thread) }
        body()
        leave(thread)
    }

    /// Whether the answer comes inside a call, on its thread: it is delivered in place.
    var isInsideCall: Bool {
        let thread = pthread_self()
        return callers.withLock { callers in callers.contains { pthread_equal($0, thread) != 0 } }
    }

    private func leave(_ thread: pthread_t) {
        callers.withLock { callers in
            if let index = callers.firstIndex(where: { pthread_equal($0, thread) != 0 }) {
                callers.remove(at: index)
            }
        }
    }
}
