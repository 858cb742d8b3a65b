import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests on one URLSession whose delegate routes each task's events to that task's own state.
///
/// On Linux, progress and other per-task events reach only the session's delegate, never a per-task
/// delegate, so routing happens here, keyed by task identifier.
final class SessionTransport: Sendable {
    /// The session `NetworkLayer()` uses. Creating and tearing down sessions crashes libcurl under load
    /// on Linux, so layers without their own configuration share this one and never invalidate it.
    static let shared = SessionTransport(configuration: .default)

    private let session: URLSession
    private let router: TaskRouter
    private let delegateQueue: OperationQueue

    init(configuration: URLSessionConfiguration) {
        router = TaskRouter()
        delegateQueue = OperationQueue()
        delegateQueue.name = "NetworkLayer.SessionTransport"
        delegateQueue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: delegateQueue)
    }

    /// Starts `request`; `completion` runs once, on the session's delegate queue.
    /// - Returns: A closure that cancels the request, safe to call from any thread, any number of times.
    func send(
        _ request: URLRequest,
        completion: @escaping @Sendable (Data, URLResponse?, (any Error)?) -> Void
    ) -> @Sendable () -> Void {
        let task = session.dataTask(with: request)
        router.register(TaskState(completion: completion), for: task)
        task.resume()
        return { [router, delegateQueue] in
            // FoundationNetworking stops the process when a task is cancelled while its completion is
            // being delivered (the task has already left the session's registry). Completion runs on the
            // serial delegate queue, so cancelling there, only while the task is still routed, cannot race it.
            delegateQueue.addOperation {
                if router.isRouting(task) { task.cancel() }
            }
        }
    }

    /// Lets running tasks finish, then releases the session and its delegate.
    func invalidate() {
        session.finishTasksAndInvalidate()
    }
}

/// What the transport keeps for one task while it runs.
private final class TaskState: @unchecked Sendable {
    // Touched only on the session's serial delegate queue after registration.
    var body = Data()
    let completion: @Sendable (Data, URLResponse?, (any Error)?) -> Void

    init(completion: @escaping @Sendable (Data, URLResponse?, (any Error)?) -> Void) {
        self.completion = completion
    }
}

/// The session delegate: a lock-protected table from task identifier to that task's state.
private final class TaskRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var states: [Int: TaskState] = [:]

    func register(_ state: TaskState, for task: URLSessionTask) {
        lock.withLock { states[task.taskIdentifier] = state }
    }

    func isRouting(_ task: URLSessionTask) -> Bool {
        state(for: task) != nil
    }

    private func state(for task: URLSessionTask) -> TaskState? {
        lock.withLock { states[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        state(for: dataTask)?.body.append(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let state = lock.withLock({ states.removeValue(forKey: task.taskIdentifier) }) else { return }
        state.completion(state.body, task.response, error)
    }
}
