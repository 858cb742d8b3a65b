import Foundation

/// The requests a layer has started whose handlers have not run yet, so ``NetworkLayer/cancelAll()`` can
/// reach them. A request leaves when one of its handlers runs.
///
/// Never cancels while holding its lock: `cancel()` may run a handler in place (a test double answering
/// synchronously), and that handler leaves the registry, or starts another request.
package final class RunningRequests: Sendable {
    private struct State {
        var tasks: [Int: any NetworkTask] = [:]
        /// Requests whose handler ran before `start` returned their task (a synchronous answer).
        var finishedEarly: Set<Int> = []
        var nextID = 0
    }

    private let state = Locked(State())

    package init() {}

    /// Starts a request with handlers that take it out of the registry before they run, and keeps its
    /// task until then.
    package func track<Value>(
        successHandler: @escaping (Value) -> Void,
        errorHandler: @escaping (NetworkError) -> Void,
        start: (_ successHandler: @escaping (Value) -> Void, _ errorHandler: @escaping (NetworkError) -> Void)
            -> any NetworkTask
    ) -> any NetworkTask {
        let id = state.withLock {
            $0.nextID += 1
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
        state.withLock {
            if $0.finishedEarly.remove(id) == nil { $0.tasks[id] = task }
        }
        return task
    }

    /// Cancels every request still in the registry; each leaves it when its error handler runs.
    package func cancelAll() {
        let running = state.withLock { Array($0.tasks.values) }
        for task in running { task.cancel() }
    }

    /// How many requests are in the registry.
    package var count: Int { state.withLock { $0.tasks.count } }

    private func finish(_ id: Int) {
        state.withLock {
            if $0.tasks.removeValue(forKey: id) == nil { $0.finishedEarly.insert(id) }
        }
    }
}
