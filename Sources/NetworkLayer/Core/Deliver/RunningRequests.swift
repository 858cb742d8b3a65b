import Foundation

/// The requests a layer has started whose handlers have not run yet, so ``NetworkLayer/cancelAll()`` can
/// reach them. A request enters before it starts and leaves when one of its handlers runs.
///
/// Never cancels while holding its lock: `cancel()` may run a handler in place (a test double answering
/// synchronously), and that handler leaves the registry, or starts another request.
package final class RunningRequests: Sendable {
    private struct State {
        /// Each request's cancel, which waits for its task when `cancelAll()` comes before `start` returns.
        var requests: [Int: DeferredCancel] = [:]
        var nextID = 0
    }

    private let state = Locked(State())

    package init() {}

    /// Starts a request with handlers that take it out of the registry before they run, and keeps it
    /// there from before it starts until then.
    ///
    /// A request is in the registry before `start` runs, not after it returns: `start` puts the request
    /// on the wire, and a `cancelAll()` on another thread between the two must still reach it.
    package func track<Value>(
        successHandler: @escaping (Value) -> Void,
        errorHandler: @escaping (NetworkError) -> Void,
        start: (_ successHandler: @escaping (Value) -> Void, _ errorHandler: @escaping (NetworkError) -> Void)
            -> any NetworkTask
    ) -> any NetworkTask {
        let entry = DeferredCancel()
        let id = state.withLock {
            $0.nextID += 1
            $0.requests[$0.nextID] = entry
            return $0.nextID
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
        entry.attach { task.cancel() }
        return task
    }

    /// Cancels every request still in the registry; each leaves it when its error handler runs.
    package func cancelAll() {
        let running = state.withLock { Array($0.requests.values) }
        for entry in running { entry.cancel() }
    }

    /// How many requests are in the registry.
    package var count: Int { state.withLock { $0.requests.count } }

    private func finish(_ id: Int) {
        _ = state.withLock { $0.requests.removeValue(forKey: id) }
    }
}
