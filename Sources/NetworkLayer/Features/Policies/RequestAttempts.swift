import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The policy stage: runs a request's attempts until one succeeds, one fails for good, or the request is
/// cancelled. Each attempt goes through every interceptor's `adapt`, then `send`; a failure goes to the
/// interceptors' `retry`, then to the retry policy.
///
/// One attempt runs at a time: each step starts from the completion of the one before.
///
/// Every interceptor hook runs on one background queue, the policy queue. An interceptor may call its
/// completion from anywhere (a token refresh finishing on the main queue), so the loop moves back to the
/// policy queue before the next hook, rather than running it wherever the last completion ran. A call
/// that delivers immediately (``NetworkLayer/deliversImmediately``) runs each hook where the step before
/// it completed instead, unless that is a queue that never runs the caller's code (``Queues/isReserved``).
///
/// No request waits forever on a policy: each stage of waiting for interceptors (the `adapt` calls of an
/// attempt, the `retry` calls after a failure) must end within the request's `timeoutInterval`, or the
/// request ends with ``NetworkError/timedOut`` and a late answer is ignored. Waits between attempts and
/// these limits run on the layer's clock. A delay longer than the retry policy's `maximumDelay` means no
/// retry.
final class RequestAttempts: @unchecked Sendable {
    typealias Send = (URLRequest, @escaping @Sendable (Result<Reply, NetworkError>) -> Void) -> Void

    static var attemptLimit: Int { 16 }
    /// The stage's settings: its attempt limit, longest wait (`nil`: the policy's `maximumDelay`) and a
    /// stream's progress count, which starts the attempts afresh when it grew, so a stream reconnecting
    /// hours later doesn't inherit its first connection's failures.
    private let stage: PolicyStage
    private let request: URLRequest
    private let interceptors: [any RequestInterceptor]
    /// The URL that answered the latest attempt; `nil` without interceptors, which alone read it.
    private let answeredBy: Locked<URL?>?
    /// The layer's policy deadlines, and its clock: hook limits, waits between attempts, `Retry-After`.
    private let deadlines: DeadlineRegistry
    // Used by one step at a time (see above), never concurrently; each step starts from the one before.
    private let send: Send
    private let finish: (Result<Reply, NetworkError>) -> Void
    private var earlierErrors: [NetworkError] = []
    private var progressAtLastFailure = 0

    /// - Parameters:
    ///   - send: Sends one attempt and reports its outcome once, having recorded the URL that answered.
    ///   - finish: Receives the outcome of the request, exactly once: `.cancelled` when the loop finds the
    ///     request cancelled between steps.
    init(
        stage: PolicyStage, request: URLRequest, answeredBy: Locked<URL?>?, send: @escaping Send,
        finish: @escaping (Result<Reply, NetworkError>) -> Void
    ) {
        self.stage = stage
        self.request = request
        self.answeredBy = answeredBy
        interceptors = stage.interceptors
        deadlines = stage.call.deadlines
        self.send = send
        self.finish = finish
    }

    /// Whether the request has ended (cancelled); no attempt starts after that.
    private var isCancelled: Bool { stage.call.task.isSettled }

    /// Starts the first attempt: where hooks run (see ``onPolicyQueue(_:)``) when there are interceptors,
    /// otherwise on the calling thread.
    func start() {
        guard !interceptors.isEmpty else { return attempt() }
        onPolicyQueue { [self] in attempt() }
    }

    /// Runs `body` where hooks run: in place when already there, else asynchronously on the policy
    /// queue. A hook's completion called from another thread comes back here, unless the call delivers
    /// immediately: then it stays where it was called, off the reserved queues.
    private func onPolicyQueue(_ body: @escaping @Sendable () -> Void) {
        let inPlace = stage.call.deliversImmediately ? !Queues.isReserved : PolicyQueue.isCurrent
        guard !inPlace else { return body() }
        PolicyQueue.queue.async(execute: body)
    }

    private func attempt() {
        guard !isCancelled else { return finish(.failure(.cancelled)) }
        let deadline = hookDeadline()
        adapt(request, from: 0) { [self] result in
            guard deadline.claim() else { return }
            switch result {
            case .failure(let error):
                finish(.failure(error))
            case .success(let adapted):
                guard !isCancelled else { return finish(.failure(.cancelled)) }
                send(adapted) { [self] outcome in
                    switch outcome {
                    case .success: finish(outcome)
                    case .failure(let error): decide(after: error, of: adapted)
                    }
                }
            }
        }
    }

    private func adapt(
        _ request: URLRequest, from index: Int,
        completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        guard index < interceptors.count else { return completion(.success(request)) }
        let once = Once()
        onPolicyQueue { [self] in
            interceptors[index].adapt(request) { [self] result in
                // An interceptor calling back twice must not fork the request into two.
                guard once.claim() else { return }
                switch result {
                case .success(let adapted): adapt(adapted, from: index + 1, completion: completion)
                case .failure: completion(result)
                }
            }
        }
    }

    private func decide(after error: NetworkError, of sent: URLRequest) {
        // A request cancelled mid-attempt: no interceptor is asked (no refresh starts for it).
        guard !isCancelled else { return finish(.failure(.cancelled)) }
        if let progressNow = stage.progress?(), progressNow != progressAtLastFailure {
            progressAtLastFailure = progressNow
            earlierErrors.removeAll()
        }
        let failed = FailedAttempt(
            request: sent, error: error, number: earlierErrors.count + 1, earlierErrors: earlierErrors,
            responseURL: answeredBy?.withLock { $0 })
        earlierErrors.append(error)
        guard failed.number < stage.attemptLimit else { return finish(.failure(error)) }
        let deadline = hookDeadline()
        ask(from: 0, about: failed) { [self] decision in
            guard deadline.claim() else { return }
            switch decision {
            case .retry:
                retry(failed, after: 0)
            case .retryAfter(let delay)
            where !delay.isFinite || delay > (stage.longestWait ?? stage.policy.maximumDelay):
                // Beyond any wait the layer allows: fail now rather than hang or retry at once.
                finish(.failure(error))
            case .retryAfter(let delay):
                retry(failed, after: max(0, delay))
            case .fail(let replacement):
                finish(.failure(replacement))
            case .doNotRetry:
                if let delay = stage.policy.delay(
                    afterAttempt: failed.number, of: stage.method, failingWith: error,
                    now: deadlines.clock.date)
                {
                    retry(failed, after: delay)
                } else {
                    finish(.failure(error))
                }
            }
        }
    }

    /// The limit on one stage of interceptor calls; without interceptors, none.
    private func hookDeadline() -> Deadline {
        Deadline(seconds: interceptors.isEmpty ? nil : request.timeoutInterval, on: deadlines) { [self] in
            finish(.failure(.timedOut))
        }
    }

    private func ask(
        from index: Int, about failed: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void
    ) {
        guard index < interceptors.count else { return completion(.doNotRetry) }
        let once = Once()
        onPolicyQueue { [self] in
            interceptors[index].retry(failed) { [self] decision in
                guard once.claim() else { return }
                if case .doNotRetry = decision {
                    ask(from: index + 1, about: failed, completion: completion)
                } else {
                    completion(decision)
                }
            }
        }
    }

    private func retry(_ failed: FailedAttempt, after delay: TimeInterval) {
        stage.call.retryReporter?(failed, delay)
        guard delay > 0, delay.isFinite else { return attempt() }
        deadlines.clock.run(after: delay, on: PolicyQueue.queue) { [self] in attempt() }
    }
}

/// The policy stage's concurrent queue, marked so code can tell it runs there.
private enum PolicyQueue {
    static let key = DispatchSpecificKey<Bool>()

    static let queue: DispatchQueue = {
        let queue = DispatchQueue(
            label: "NetworkLayer.policies", attributes: .concurrent, target: Queues.work)
        queue.setSpecific(key: key, value: true)
        return queue
    }()

    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}
