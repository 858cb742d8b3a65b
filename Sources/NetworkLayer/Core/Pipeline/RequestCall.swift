import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request's lifecycle, which its stages share: the task that delivers exactly once, cancels the
/// attempt under way and meters the request, and who watches its attempts. Not the transport, which the chain
/// holds: a reply a test double holds keeps the call, not its layer's transport, alive.
struct RequestCall: Sendable {
    let task: RequestTask
    /// `nil` when nobody watches (no monitors).
    let observer: MonitoredCall?
    /// Whether the call runs its decoding, interceptors and handlers where each step is settled (see
    /// ``NetworkLayer/deliversImmediately``), rather than on the work, policy and callback queues.
    let deliversImmediately: Bool

    func attemptEnded(_ result: TransferResult, number: Int) {
        task.transportFinished(metering: result)
        for _ in 0..<result.bodyResends { observer?.attemptResentBody(number: number) }
        // Only a reply that arrived in full: not one cut off by a cancel, a timeout or the size limit.
        if let observer, result.error == nil, let response = result.response as? HTTPURLResponse {
            observer.attemptReceived(response, body: result.body, number: number)
        }
    }

    func willRetry(after delay: TimeInterval, because error: NetworkError) {
        // The number the attempt was started with: a stream's reconnections count on, where the
        // policy's count starts over after events arrived.
        observer?.attemptWillRetry(number: max(1, task.latestAttempt), after: delay, because: error)
    }
}

/// An attempt's bookkeeping, the last stage before the cache and the transport: the attempt begun on the
/// call's task (which cancels it), metered and told to the monitors. It goes out at the call's priority
/// as it is when it begins; the origin's gate reads it again after a wait.
struct AttemptStage: RequestStage {
    let call: RequestCall

    func intercept(
        _ attempt: URLRequest, chain: RequestChain, completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        let task = call.task
        let bodyLength = chain.route.bodyLength.map(Int.init) ?? attempt.httpBody?.count ?? 0
        guard let begun = task.beginAttempt(sending: bodyLength) else {
            completion(TransferResult(failure: .cancelled))
            return {}
        }
        call.observer?.attemptStarted(attempt, number: begun.attempt)
        var chain = chain
        chain.priority = task.priority
        let cancel = chain.proceed(attempt) { result in
            call.attemptEnded(result, number: begun.attempt)
            completion(result)
        }
        task.attach(cancellingWith: cancel, toAttempt: begun.child)
        return cancel
    }
}
