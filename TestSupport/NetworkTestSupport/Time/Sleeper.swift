import Foundation
import NetworkLayer

/// One `sleep(until:)` on a ``TestClock``: resumed once, by the clock's timer or by a cancellation,
/// whichever comes first.
final class Sleeper: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var timer: (any ClockTimer)?
        var finished = false
        var error: (any Error)?
    }

    private let state = Locked(State())

    /// Keeps `continuation` and arms the timer `arm` makes, unless a cancellation came first.
    func start(
        _ continuation: CheckedContinuation<Void, any Error>, arm: () -> any ClockTimer
    ) {
        let cancelledFirst = state.withLock { state -> (any Error)? in
            guard !state.finished else { return state.error ?? CancellationError() }
            state.continuation = continuation
            return nil
        }
        if let cancelledFirst { return continuation.resume(throwing: cancelledFirst) }
        let timer = arm()
        let finishedMeanwhile = state.withLock { state -> Bool in
            state.timer = timer
            return state.finished
        }
        if finishedMeanwhile { timer.cancel() }
    }

    /// Resumes the sleeper, once: normally when `error` is `nil`.
    func finish(throwing error: (any Error)?) {
        let (continuation, timer) = state.withLock { state in
            guard !state.finished else {
                return (nil, nil) as (CheckedContinuation<Void, any Error>?, (any ClockTimer)?)
            }
            state.finished = true
            state.error = error
            defer { state.continuation = nil }
            return (state.continuation, state.timer)
        }
        timer?.cancel()
        if let error { continuation?.resume(throwing: error) } else { continuation?.resume() }
    }
}
