import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The policies as a stage: each attempt adapted, checked and sent down the chain, its outcome validated,
/// and a failure retried while an interceptor or the retry policy asks (see ``RequestAttempts``).
struct PolicyStage: RequestStage {
    let call: RequestCall
    /// The layer's, the request's, and a stream's reconnection last.
    let interceptors: [any RequestInterceptor]
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
        RequestAttempts(stage: self, request: request, chain: chain) { completion(TransferResult($0)) }
            .start()
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
