import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs a request's attempts (interceptors' `adapt`, `send`; on failure their `retry`, then the retry
/// policy) until one succeeds, one fails for good, or the request is cancelled. One step at a time: each
/// starts from the completion of the one before.
///
/// Hooks run on the policy queue: an interceptor may complete from anywhere (a refresh finishing on the
/// main queue), so the loop moves back before the next hook. A call that delivers immediately
/// (``NetworkLayer/deliversImmediately``) runs each hook where the step before completed instead, unless
/// that is a queue that never runs the caller's code (``Queues/isReserved``).
///
/// Each round of hooks (an attempt's `adapt`s, a failure's `retry`s) must end within the request's
/// `timeoutInterval`, else ``NetworkError/timedOut`` and a late answer is ignored; limits and waits run on
/// the layer's clock.
///
/// Immutable: what the failed attempts so far leave (``History``) goes from each step to the next as a
/// value, as the URL that answered goes from `send` to the decision after it.
struct RequestAttempts: Sendable {
    static var attemptLimit: Int { 16 }
    /// A stream's progress count (`stage.progress`) starts the attempts afresh when it grew, so a stream
    /// reconnecting hours later doesn't inherit its first connection's failures.
    let stage: PolicyStage
    let request: URLRequest
    /// The stages below, down which each attempt goes.
    let chain: RequestChain
    /// Called exactly once.
    let finish: @Sendable (Result<Reply, NetworkError>) -> Void

    /// The failures that count against the attempt limit, handed from each step to the next.
    private struct History: Sendable {
        var earlierErrors: [NetworkError] = []
        var progressAtLastFailure = 0
    }

    /// Where hooks run, marked so code can tell it runs there.
    private static let queue: DispatchQueue = {
        let queue = DispatchQueue(
            label: "NetworkLayer.policies", attributes: .concurrent, target: Queues.work)
        queue.setSpecific(key: queueKey, value: true)
        return queue
    }()
    private static let queueKey = DispatchSpecificKey<Bool>()

    private var isCancelled: Bool { stage.call.task.isSettled }
    private var interceptors: [any RequestInterceptor] { stage.interceptors }
    private var clock: any NetworkClock { stage.call.task.clock }

    /// Without interceptors, on the calling thread.
    func start() {
        guard !interceptors.isEmpty else { return attempt(History()) }
        onPolicyQueue { attempt(History()) }
    }

    /// Runs `body` where hooks run: in place when already there, else asynchronously on the policy
    /// queue. A hook's completion called from another thread comes back here, unless the call delivers
    /// immediately: then it stays where it was called, off the reserved queues.
    private func onPolicyQueue(_ body: @escaping @Sendable () -> Void) {
        let inPlace =
            stage.call.deliversImmediately
            ? !Queues.isReserved : DispatchQueue.getSpecific(key: Self.queueKey) == true
        guard !inPlace else { return body() }
        Self.queue.async(execute: body)
    }

    private func attempt(_ history: History) {
        guard !isCancelled else { return finish(.failure(.cancelled)) }
        round(
            request, hook: { $0.adapt($1, completion: $2) }, goesOn: { try? $0.get() }, end: { .success($0) },
            completion: { result in
                switch result {
                case .success(let adapted) where !isCancelled: send(adapted, history)
                case .success: finish(.failure(.cancelled))
                case .failure(let error): finish(.failure(error))
                }
            })
    }

    /// Sends `proposed`, checked as the builder checks its own, down the chain: a success finishes; a
    /// failure, validated, goes to the decision with the URL that answered it (after redirects).
    private func send(_ proposed: URLRequest, _ history: History) {
        switch stage.checker?.checked(proposed, built: request) ?? .success(proposed) {
        case .failure(let error):
            decide(after: error, of: proposed, answeredBy: nil, history: history)
        case .success(let attempt):
            // The attempt stage below attaches each attempt's cancel to the call's task.
            _ = chain.proceed(attempt) { result in
                switch ResponseValidator.validate(result, expecting: stage.expectation) {
                case .success(let reply): finish(.success(reply))
                case .failure(let error):
                    decide(after: error, of: proposed, answeredBy: result.response?.url, history: history)
                }
            }
        }
    }

    /// Runs a round of `hook` on the interceptors, one at a time where hooks run: while an answer says to
    /// go on (`goesOn` gives what the next one gets), the next is asked; any other answer, or `end` past
    /// the last interceptor, ends the round and goes to `completion` if it is the first within the round's
    /// limit (the request's timeout, then ``NetworkError/timedOut``). For the request's monitors the round
    /// is timed (``RequestMetrics/policyWaitDuration``; the task counts a round that doesn't end until its
    /// outcome). Without interceptors, no limit and nothing timed.
    private func round<Value: Sendable, Answer: Sendable>(
        _ value: Value,
        hook:
            @escaping @Sendable (any RequestInterceptor, Value, @escaping @Sendable (Answer) -> Void) -> Void,
        goesOn: @escaping @Sendable (Answer) -> Value?, end: @escaping @Sendable (Value) -> Answer,
        completion: @escaping @Sendable (Answer) -> Void
    ) {
        let deadline = Deadline(seconds: interceptors.isEmpty ? nil : request.timeoutInterval, on: clock) {
            finish(.failure(.timedOut))
        }
        let task = stage.call.task
        let timed = !interceptors.isEmpty && task.measuresForMonitors
        if timed { task.policyRound(begins: true) }
        let ends = { @Sendable (answer: Answer) in
            guard deadline.claim() else { return }
            if timed { task.policyRound(begins: false) }
            completion(answer)
        }
        @Sendable func ask(_ index: Int, _ value: Value) {
            guard index < interceptors.count else { return ends(end(value)) }
            let once = Once()
            onPolicyQueue {
                hook(interceptors[index], value) { answer in
                    // An interceptor calling back twice must not fork the request into two.
                    guard once.claim() else { return }
                    guard let next = goesOn(answer) else { return ends(answer) }
                    ask(index + 1, next)
                }
            }
        }
        ask(0, value)
    }

    private func decide(
        after error: NetworkError, of sent: URLRequest, answeredBy: URL?, history earlier: History
    ) {
        // A request cancelled mid-attempt: no interceptor is asked (no refresh starts for it).
        guard !isCancelled else { return finish(.failure(.cancelled)) }
        var counted = earlier
        if let progressNow = stage.progress?(), progressNow != counted.progressAtLastFailure {
            counted = History(progressAtLastFailure: progressNow)
        }
        let failed = FailedAttempt(
            request: sent, error: error, number: counted.earlierErrors.count + 1,
            earlierErrors: counted.earlierErrors, responseURL: answeredBy)
        counted.earlierErrors.append(error)
        let history = counted
        guard failed.number < stage.attemptLimit else { return finish(.failure(error)) }
        round(
            failed, hook: { $0.retry($1, completion: $2) },
            goesOn: { decision in if case .doNotRetry = decision { failed } else { nil } },
            end: { _ in .doNotRetry },
            completion: { decision in
                if case .fail(let replacement) = decision { return finish(.failure(replacement)) }
                let longestWait = stage.longestWait ?? stage.policy.maximumDelay
                let delay: TimeInterval? =
                    switch decision {
                    case .retry: 0
                    // Beyond any wait the layer allows: fail now rather than hang or retry at once.
                    case .retryAfter(let delay): delay.isFinite && delay <= longestWait ? max(0, delay) : nil
                    default:
                        stage.policy.delay(
                            afterAttempt: failed.number, of: stage.method, failingWith: error, now: clock.date
                        )
                    }
                guard let delay else { return finish(.failure(error)) }
                stage.call.willRetry(after: delay, because: error)
                guard delay > 0, delay.isFinite else { return attempt(history) }
                // The call's wait: its cancel or time limit ends the wait at once, and the loop finishes then.
                stage.call.task.wait(delay, on: clock, queue: Self.queue) { attempt(history) }
            })
    }
}
