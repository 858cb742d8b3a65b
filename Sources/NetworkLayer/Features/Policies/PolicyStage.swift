import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The policies as a stage: each attempt adapted, checked and sent down the chain, its outcome validated,
/// and a failure retried while an interceptor or the retry policy asks (see ``RequestAttempts``).
struct PolicyStage: RequestStage {
    let call: RequestCall
    /// Checks an adapted request as the builder checks its own; `nil` when no interceptor may adapt it.
    let checker: RequestBuilder?
    let method: HTTPMethod
    let policy: RetryPolicy
    /// Validates each attempt's reply, to tell a failure the policies may retry.
    let expectation: ReplyExpectation
    /// More and longer for a stream that reconnects.
    let attemptLimit: Int
    let longestWait: TimeInterval?
    let progress: (@Sendable () -> Int)?

    func intercept(
        _ request: URLRequest, chain: RequestChain, completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        let (task, answeredBy, expectation, checker) = (call.task, call.answeredBy, expectation, checker)
        let attempts = RequestAttempts<Reply>(
            request: request, method: method, interceptors: call.interceptors, policy: policy,
            deadlines: call.deadlines, isCancelled: { task.isSettled },
            deliversImmediately: call.deliversImmediately, attemptLimit: attemptLimit,
            longestWait: longestWait, progress: progress,
            answeredBy: { answeredBy?.withLock { $0 } },
            send: { proposed, done in
                var attempt = proposed
                if let checker {
                    switch checker.checked(proposed, built: request) {
                    case .success(let checked): attempt = checked
                    case .failure(let error): return done(.failure(error))
                    }
                }
                // The attempt stage below attaches each attempt's cancel to the call's task.
                _ = chain.proceed(attempt) { done(ResponseValidator.validate($0, expecting: expectation)) }
            },
            finish: { completion(TransferResult($0)) })
        attempts.onRetry = call.retryReporter
        attempts.start()
        // The call's task cancels the attempt under way, and the loop stops at its next step.
        return {}
    }
}

extension TransferResult {
    init(_ outcome: Result<Reply, NetworkError>) {
        switch outcome {
        case .success(let reply):
            self.init(
                body: reply.body, response: reply.response, error: nil, respondedAt: nil,
                cacheStatus: reply.cacheStatus, providedValue: reply.providedValue)
            validated = reply
        case .failure(let error):
            self.init(failure: error)
        }
    }
}
