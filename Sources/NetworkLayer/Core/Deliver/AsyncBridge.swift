import Foundation

/// Joins one `async` request to the callback funnel: starts it, passes a `Task`'s cancellation on, and
/// resumes the caller exactly once. The starter, the cancellation handler (any time, even before `send`
/// returns) and the handlers (maybe inside `send`) race; the continuation is taken out under the lock,
/// so the first outcome resumes it and later ones find it gone.
final class AsyncBridge<Value>: Sendable {
    /// Why unchecked: `NetworkResponse<Value>` isn't always `Sendable`, but it is handed over once.
    typealias Outcome = UncheckedSendable<Result<NetworkResponse<Value>, NetworkError>>

    private let state = Locked(State())

    private struct State {
        var phase = Phase.waiting
        var continuation: CheckedContinuation<Outcome, Never>?
    }

    private enum Phase {
        case waiting
        case cancelledBeforeStart
        case starting
        /// Cancelled while `send` ran: the request is cancelled as soon as it returns.
        case startingCancelled
        case running(any NetworkTask)
        case finished
    }

    /// Sends `request` unless the task was already cancelled; `continuation` is resumed once either way.
    /// Not isolated, so its handlers are plain closures that may run on any queue.
    func start(
        _ request: NetworkRequest<Value>, on layer: NetworkLayer,
        continuation: CheckedContinuation<Outcome, Never>
    ) {
        let shouldSend: Bool = state.withLock { state in
            state.continuation = continuation
            guard case .waiting = state.phase else { return false }
            state.phase = .starting
            return true
        }
        guard shouldSend else {
            finish(.failure(.cancelled))
            return
        }
        // Why in place: a hop through the (often busy main) callback queue would delay the await for nothing.
        var request = request
        request.deliversImmediately = true
        let task = layer.send(
            request, successHandler: { self.finish(.success($0)) },
            errorHandler: { self.finish(.failure($0)) })
        let cancelNow: Bool = state.withLock { state in
            switch state.phase {
            case .starting:
                state.phase = .running(task)
                return false
            case .startingCancelled:
                state.phase = .running(task)
                return true
            case .waiting, .cancelledBeforeStart, .running, .finished:
                // Finished already (a test double answered inside `send`): keep no reference to the task.
                return false
            }
        }
        if cancelNow { task.cancel() }
    }

    /// The task's cancellation handler: before the request starts it only marks the bridge, so `start`
    /// sends nothing.
    func cancel() {
        let task: (any NetworkTask)? = state.withLock { state in
            switch state.phase {
            case .waiting:
                state.phase = .cancelledBeforeStart
                return nil
            case .starting:
                state.phase = .startingCancelled
                return nil
            case .running(let task):
                return task
            case .cancelledBeforeStart, .startingCancelled, .finished:
                return nil
            }
        }
        task?.cancel()
    }

    private func finish(_ result: Result<NetworkResponse<Value>, NetworkError>) {
        let continuation: CheckedContinuation<Outcome, Never>? = state.withLock { state in
            state.phase = .finished
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: UncheckedSendable(value: result))
    }
}
