/// The requests a layer has started whose handlers have not run, for ``NetworkLayer/cancelAll()``.
/// Never cancels under its lock: `cancel()` may run a handler in place, which leaves the registry or
/// starts another request.
package final class RunningRequests: Sendable {
    private struct State {
        /// Each request's task, `nil` until its `start` returns it.
        var requests: [Int: (any NetworkTask)?] = [:]
        var nextID = 0
        /// The last request begun when `cancelAll()` last ran: one up to it whose `start` had not returned
        /// then is cancelled as it returns.
        var cancelledThrough = 0
    }

    private let state = Locked(State())

    package init() {}

    /// Registers the request before `start` puts it on the wire, so a concurrent `cancelAll()` reaches it;
    /// its handlers take it out before they run.
    package func track<Value>(
        successHandler: @escaping (Value) -> Void,
        errorHandler: @escaping (NetworkError) -> Void,
        start: (_ successHandler: @escaping (Value) -> Void, _ errorHandler: @escaping (NetworkError) -> Void)
            -> any NetworkTask
    ) -> any NetworkTask {
        let id = state.withLock { state in
            state.nextID += 1
            state.requests.updateValue(nil, forKey: state.nextID)
            return state.nextID
        }
        let task = start(
            { [self] value in
                finish(id)
                successHandler(value)
            },
            { [self] error in
                finish(id)
                errorHandler(error)
            })
        // Kept, unless its handlers took it out already (nothing is left to cancel); cancelled now if a
        // `cancelAll()` came since it began.
        let cancelNow = state.withLock { state in
            guard state.requests[id] != nil else { return false }
            state.requests[id] = task
            return id <= state.cancelledThrough
        }
        if cancelNow { task.cancel() }
        return task
    }

    package func cancelAll() {
        let running = state.withLock { state in
            state.cancelledThrough = state.nextID
            return state.requests.values.compactMap { $0 }
        }
        for task in running { task.cancel() }
    }

    package var count: Int { state.withLock { $0.requests.count } }

    private func finish(_ id: Int) {
        _ = state.withLock { $0.requests.removeValue(forKey: id) }
    }
}
