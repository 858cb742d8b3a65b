import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request on the session: the body as it arrives, the size limit, the idle timeout, and the one
/// completion.
///
/// The session delegate feeds it on the delegate queue. The layer stops a transfer itself (too large,
/// timed out, cancelled) only on that queue too, so a stop is never unordered against the task's
/// completion or a redirect the delegate is answering: that is what keeps FoundationNetworking's traps
/// out of reach (see `SessionDelegate`).
final class DataTransfer: @unchecked Sendable {
    typealias Completion = @Sendable (TransferResult) -> Void

    // Mutable state is guarded by `lock`: the delegate queue writes it, the timer queue reads it.
    private let lock = NSLock()
    private var body = Data()
    private var response: URLResponse?
    private var stopReason: URLError?
    private var declinedChallenge = false
    private var lastActivity: UInt64
    private var idleTimer: IdleTimer?
    private var respondedAt: UInt64?
    private var task: URLSessionTask?
    private var completion: Completion?

    /// The requesting layer's rules for following redirects; layers sharing a session may differ.
    let redirectPolicy: RedirectPolicy
    private let limit: Int
    private let idleTimeout: TimeInterval
    private let checksContentLength: Bool
    private let delegateQueue: OperationQueue

    /// - Parameters:
    ///   - limit: The most body bytes (after content decoding) to accept.
    ///   - idleTimeout: Seconds without data after which the transfer fails with `.timedOut`.
    ///   - method: The request's method; a HEAD reply's `Content-Length` announces no body.
    init(
        limit: Int, idleTimeout: TimeInterval, method: String?, redirectPolicy: RedirectPolicy,
        delegateQueue: OperationQueue, completion: @escaping Completion
    ) {
        self.redirectPolicy = redirectPolicy
        self.limit = max(0, limit)
        self.idleTimeout = idleTimeout
        checksContentLength = method != "HEAD"
        self.delegateQueue = delegateQueue
        self.completion = completion
        lastActivity = DispatchTime.now().uptimeNanoseconds
    }

    /// Starts the transfer on `task` and arms its idle timeout.
    func start(_ task: URLSessionTask) {
        lock.withLock { self.task = task }
        task.resume()
        startIdleTimer()
    }

    // MARK: - Events from the session delegate (delegate queue)

    /// A response head arrived; `false` if its announced length is over the limit.
    func receive(_ response: URLResponse) -> Bool {
        let tooLarge = lock.withLock {
            self.response = response
            lastActivity = DispatchTime.now().uptimeNanoseconds
            respondedAt = lastActivity
            return checksContentLength && response.expectedContentLength > Int64(limit)
        }
        if tooLarge { stop(because: Self.tooLarge(limit)) }
        return !tooLarge
    }

    /// Body bytes arrived. Past the limit the transfer stops and keeps none of them, including what
    /// FoundationNetworking still hands over after the cancel.
    func receive(_ data: Data) {
        let tooLarge: Bool = lock.withLock {
            guard completion != nil, stopReason == nil else { return false }
            lastActivity = DispatchTime.now().uptimeNanoseconds
            guard body.count + data.count <= limit else {
                body = Data()
                return true
            }
            body.append(data)
            return false
        }
        if tooLarge { stop(because: Self.tooLarge(limit)) }
    }

    /// Body bytes went out: a slow upload that is making progress is not idle.
    func sent(bodyBytes: Int64) {
        lock.withLock { lastActivity = DispatchTime.now().uptimeNanoseconds }
    }

    /// The server's redirect is being followed: what arrived so far belonged to the 3xx.
    func redirected() {
        lock.withLock {
            body = Data()
            response = nil
            lastActivity = DispatchTime.now().uptimeNanoseconds
        }
    }

    /// Whether the redirect may still be answered: not once the layer has stopped the transfer
    /// (answering a cancelled task's redirect stops the process in FoundationNetworking).
    var isStopped: Bool { lock.withLock { stopReason != nil || completion == nil } }

    /// The server asked for credentials the layer doesn't have. FoundationNetworking would wait
    /// forever for them; declining ends the task as cancelled, which ``finish(with:)`` turns back into
    /// the challenge's own reply (a 401 or 407 with its headers).
    func declineChallenge() {
        lock.withLock { declinedChallenge = true }
    }

    /// The task is over: deliver what arrived, or why it stopped, exactly once.
    func finish(with error: (any Error)?, response taskResponse: URLResponse?) {
        let delivery: (Completion, TransferResult)? = lock.withLock {
            guard let completion else { return nil }
            defer {
                self.completion = nil
                task = nil
                body = Data()
                idleTimer?.cancel()
                idleTimer = nil
            }
            let response = self.response ?? taskResponse
            if let stopReason {
                return (
                    completion,
                    TransferResult(
                        body: Data(), response: response, error: stopReason, respondedAt: respondedAt)
                )
            }
            let declined = declinedChallenge && (error as? URLError)?.code == .cancelled
            return (
                completion,
                TransferResult(
                    body: body, response: response, error: declined ? nil : error, respondedAt: respondedAt)
            )
        }
        guard let (completion, result) = delivery else { return }
        completion(result)
    }

    // MARK: - Stopping (delegate queue)

    /// Cancels the task for `reason` unless it has already finished; the first reason wins.
    func stop(because reason: URLError?) {
        let task: URLSessionTask? = lock.withLock {
            guard completion != nil else { return nil }
            if stopReason == nil { stopReason = reason }
            return self.task
        }
        delegateQueue.callingSession { task?.cancel() }
    }

    /// Stops the transfer from any thread: the stop itself runs on the delegate queue.
    func stopFromAnyThread(because reason: URLError?) {
        delegateQueue.addOperation { self.stop(because: reason) }
    }

    // MARK: - Idle timeout

    /// Starts the idle timer; it ends with the transfer.
    private func startIdleTimer() {
        let timer = IdleTimer(
            timeout: idleTimeout,
            idleFor: { [weak self] in self?.idleSeconds() },
            expire: { [weak self] in self?.stopFromAnyThread(because: URLError(.timedOut)) })
        lock.withLock { idleTimer = timer }
    }

    /// Seconds since data last moved; `nil` once the transfer is over.
    private func idleSeconds() -> TimeInterval? {
        lock.withLock {
            guard completion != nil else { return nil }
            return TimeInterval(DispatchTime.now().uptimeNanoseconds - lastActivity) / 1e9
        }
    }

    static func tooLarge(_ limit: Int) -> URLError {
        URLError(
            .dataLengthExceedsMaximum,
            userInfo: [NSLocalizedDescriptionKey: "The reply is larger than the limit of \(limit) bytes."])
    }
}

/// What the transport hands back for one request.
struct TransferResult: Sendable {
    /// The body as delivered (after gzip inflation); empty when the transfer was stopped.
    let body: Data
    let response: URLResponse?
    let error: (any Error)?
    /// When the response head arrived (uptime nanoseconds); `nil` if it never did.
    let respondedAt: UInt64?
    /// Body bytes a download wrote to its file instead of keeping in ``body``.
    var storedBytes: Int64 = 0
}
