import Foundation

/// The requests a layer has started whose handlers have not run, for ``NetworkLayer/cancelAll()``.
/// Never cancels under its lock: `cancel()` may run a handler in place, which leaves the registry or
/// starts another request.
package final class RunningRequests: Sendable {
    private struct State {
        /// Waits for its task when `cancelAll()` comes before `start` returns.
        var requests: [Int: DeferredCancel] = [:]
        var nextID = 0
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

    package func cancelAll() {
        let running = state.withLock { Array($0.requests.values) }
        for entry in running { entry.cancel() }
    }

    package var count: Int { state.withLock { $0.requests.count } }

    private func finish(_ id: Int) {
        _ = state.withLock { $0.requests.removeValue(forKey: id) }
    }
}
