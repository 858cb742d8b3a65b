import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The policies as a stage: each attempt adapted by the interceptors (authentication among them),
/// checked and passed down the chain, its outcome validated, and a failure sent again while an
/// interceptor (a token refresh) or the retry policy asks. See ``RequestAttempts``.
struct PolicyStage: RequestStage {
    let call: RequestCall
    /// What an adapted request is checked by, as the builder checks its own; `nil` when no interceptor
    /// may adapt it.
    let checker: RequestBuilder?
    let method: HTTPMethod
    let policy: RetryPolicy
    /// What each attempt's reply is validated against, to tell a failure the policies may retry.
    let expectation: ReplyExpectation
    /// The most attempts since the last progress, and the longest wait an interceptor may ask for:
    /// more and longer for a stream that reconnects.
    let attemptLimit: Int
    let longestWait: TimeInterval?
    /// A stream's progress count, which starts the count of attempts afresh; `nil` for a request.
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
    /// The policies' outcome, handed up the chain as the validated reply or the error that ended them.
    init(_ outcome: Result<Reply, NetworkError>) {
        switch outcome {
        case .success(let reply):
            self.init(
                body: reply.body, response: reply.response, error: nil, respondedAt: nil,
                cacheStatus: reply.cacheStatus, providedValue: reply.providedValue)
        case .failure(let error):
            self.init(failure: error)
        }
    }
}
