import NetworkLayer

/// Opens once the dummy's `send` call has returned its task: what waits behind it (a test woken by a held
/// request, see ``DummyNetworkLayer/nextPendingRequest(timeout:)``) then finds the request as the caller
/// has it, its task returned and known to `cancelAll()`, and may release or cancel it at once.
final class DummySendLatch: Sendable {
    /// What runs once the call returns; `nil` once it has.
    private let waiting = Locked<[@Sendable () -> Void]?>([])

    /// The `send` call has returned: runs what waited for it.
    func open() {
        let work = waiting.withLock { waiting in
            defer { waiting = nil }
            return waiting ?? []
        }
        for body in work { body() }
    }

    /// Runs `body` once the `send` call has returned, at once if it has.
    func afterSend(_ body: @escaping @Sendable () -> Void) {
        let now = waiting.withLock { waiting in
            guard waiting != nil else { return true }
            waiting?.append(body)
            return false
        }
        if now { body() }
    }
}
