import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests on one URLSession whose delegate keeps a table of the tasks in flight.
///
/// Tasks are created with completion handlers: on Linux a task without one costs about three delegate
/// operations per request, plus one per body chunk, all on the serial delegate queue (measured: 6–11%
/// of small-request throughput, and most of the throughput of 1 MB replies). The session still has a
/// delegate, so per-task events that need one (progress, redirects, challenges) can be routed through
/// the same table.
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
        let slot = TaskSlot()
        let task = session.dataTask(with: request) { [router] data, response, error in
            router.remove(slot.identifier)
            completion(data ?? Data(), response, error)
        }
        slot.identifier = task.taskIdentifier
        router.add(task.taskIdentifier)
        task.resume()
        return { [router, delegateQueue] in
            // FoundationNetworking stops the process when a task is cancelled while its completion is
            // being delivered (the task has already left the session's registry). Completion runs on the
            // serial delegate queue, so cancelling there, only while the task is still in flight, cannot
            // race it.
            delegateQueue.addOperation {
                if router.contains(task.taskIdentifier) { task.cancel() }
            }
        }
    }

    /// The session's delegate; tests watch it to see that an owned session was invalidated.
    var delegate: AnyObject { router }

    /// Lets running tasks finish, then releases the session and its delegate.
    func invalidate() {
        session.finishTasksAndInvalidate()
    }
}

/// A task's identifier, known only once the task exists, read by its completion handler.
private final class TaskSlot: @unchecked Sendable {
    // Written before `resume()`, read after completion: `resume()` orders the two.
    var identifier = 0
}

/// The session delegate: a lock-protected table of the tasks in flight.
private final class TaskRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var inFlight: Set<Int> = []

    func add(_ identifier: Int) {
        _ = lock.withLock { inFlight.insert(identifier) }
    }

    func remove(_ identifier: Int) {
        _ = lock.withLock { inFlight.remove(identifier) }
    }

    func contains(_ identifier: Int) -> Bool {
        lock.withLock { inFlight.contains(identifier) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(
            RedirectPolicy.default.request(following: response, to: request, from: task.originalRequest))
    }
}
