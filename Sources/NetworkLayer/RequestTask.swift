import Foundation

/// The delivery stage: a one-shot latch that makes sure exactly one handler runs, exactly once, on the
/// callback queue, whatever order the reply, a failure and `cancel()` arrive in.
final class RequestTask: NetworkTask, @unchecked Sendable {
    // Everything mutable is guarded by `lock`; handlers run only on `callbackQueue`.
    private let lock = NSLock()
    private let callbackQueue: DispatchQueue
    private let failureHandler: (NetworkError) -> Void
    private var phase = Phase.running
    private var cancelTransport: (@Sendable () -> Void)?

    private enum Phase {
        case running
        /// The outcome is decided and a delivery is scheduled; `cancel()` may still replace it.
        case settled(() -> Void)
        case delivered
    }

    init(callbackQueue: DispatchQueue, failureHandler: @escaping (NetworkError) -> Void) {
        self.callbackQueue = callbackQueue
        self.failureHandler = failureHandler
    }

    /// Links the transport's cancel action so `cancel()` can stop the request; a task already cancelled
    /// stops it at once.
    func attach(cancellingWith cancelTransport: @escaping @Sendable () -> Void) {
        let isRunning = lock.withLock {
            guard case .running = phase else { return false }
            self.cancelTransport = cancelTransport
            return true
        }
        if !isRunning { cancelTransport() }
    }

    /// Settles with success; `deliver` calls the success handler.
    func succeed(_ deliver: @escaping () -> Void) {
        settle(deliver, replacingSettled: false)
    }

    /// Settles with `error`, unless the task is already settled.
    func fail(_ error: NetworkError) {
        settle({ [failureHandler] in failureHandler(error) }, replacingSettled: false)
    }

    func cancel() {
        let cancelTransport = lock.withLock { self.cancelTransport }
        settle({ [failureHandler] in failureHandler(.cancelled) }, replacingSettled: true)
        cancelTransport?()
    }

    private func settle(_ deliver: @escaping () -> Void, replacingSettled: Bool) {
        let shouldSchedule: Bool = lock.withLock {
            switch phase {
            case .running:
                phase = .settled(deliver)
                return true
            case .settled where replacingSettled:
                phase = .settled(deliver)
                return false
            case .settled, .delivered:
                return false
            }
        }
        if shouldSchedule {
            callbackQueue.async { self.deliver() }
        }
    }

    private func deliver() {
        let handler: (() -> Void)? = lock.withLock {
            guard case .settled(let handler) = phase else { return nil }
            phase = .delivered
            cancelTransport = nil
            return handler
        }
        handler?()
    }
}
