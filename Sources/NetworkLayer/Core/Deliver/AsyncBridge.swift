import Foundation

/// Joins one `async` request to the callback funnel: it starts the request, passes a Swift `Task`'s
/// cancellation on to the ``NetworkTask``, and resumes the awaiting code exactly once.
///
/// Three parties race: the code that starts the request, the task's cancellation handler (which may
/// run before the request starts, while `send` is still building it, or at any time after), and the
/// request's handlers (which a test double may call synchronously inside `send`). Every transition
/// happens under the state's lock; the continuation is taken out under it, so whichever outcome comes first
/// resumes it and every later one finds it gone.
final class AsyncBridge<Value>: Sendable {
    /// The outcome crossing from where it was settled to the awaiting code. `NetworkResponse<Value>` is
    /// not `Sendable` for every `Value`; it is handed over once and never touched again by the handler
    /// (see ``UncheckedSendable``).
    typealias Outcome = UncheckedSendable<Result<NetworkResponse<Value>, NetworkError>>

    private let state = Locked(State())

    private struct State {
        var phase = Phase.waiting
        var continuation: CheckedContinuation<Outcome, Never>?
    }

    private enum Phase {
        /// Not started yet.
        case waiting
        /// The task was cancelled before the request started: nothing will be sent.
        case cancelledBeforeStart
        /// `send` is running and has not returned the task yet.
        case starting
        /// The task was cancelled while `send` ran: the request is cancelled as soon as it returns.
        case startingCancelled
        /// The request is in flight and can be cancelled.
        case running(any NetworkTask)
        /// A handler ran; the continuation has been resumed.
        case finished
    }

    /// Sends `request` through the layer's funnel, unless the task was already cancelled; either way
    /// `continuation` is resumed exactly once, when the outcome is known.
    ///
    /// Not isolated to anything, so the handlers made here are plain closures that may run on any queue.
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
        // The handlers only resume the continuation: a hop through the callback queue would make the
        // await wait for that queue (the main queue, often busy) for nothing.
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
                // Finished already (a test double answers inside `send`): keep no reference to the task.
                return false
            }
        }
        if cancelNow { task.cancel() }
    }

    /// Cancels the request: the task's cancellation handler. Before the request starts it only marks
    /// the bridge, so `start` sends nothing; once the request runs, its task's `cancel()` makes the error
    /// handler receive ``NetworkError/cancelled``.
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

    /// Resumes the awaiting code with `result`, the first time only.
    private func finish(_ result: Result<NetworkResponse<Value>, NetworkError>) {
        let continuation: CheckedContinuation<Outcome, Never>? = state.withLock { state in
            state.phase = .finished
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: UncheckedSendable(value: result))
    }
}
