import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request's lifecycle, which its stages share: the task that delivers exactly once and cancels the
/// attempt under way, the meter, the monitors and the progress. Not the transport, which the chain
/// holds: a reply a test double holds keeps the call, not its layer's transport, alive.
final class RequestCall: Sendable {
    /// The one-shot delivery latch: exactly one handler, once.
    let task: RequestTask
    let meter: RequestMeter
    /// The monitors' channel and the request as they see it; `nil` without monitors.
    let monitors: MonitorGroup.Channel?
    let monitored: MonitoredRequest?
    let progress: ProgressReporter?
    /// The layer's policy deadlines, and through them its clock.
    let deadlines: DeadlineRegistry
    /// The layer's, the request's, and a stream's reconnection last.
    let interceptors: [any RequestInterceptor]
    /// The URL that answered the latest attempt, for the interceptors that judge its failure.
    let answeredBy: Locked<URL?>?
    /// Whether the call runs its decoding, interceptors and handlers where each step is settled (see
    /// ``NetworkLayer/deliversImmediately``), rather than on the work, policy and callback queues.
    let deliversImmediately: Bool

    init(
        task: RequestTask, meter: RequestMeter, monitors: MonitorGroup.Channel?, monitored: MonitoredRequest?,
        progress: ProgressReporter?, deadlines: DeadlineRegistry, deliversImmediately: Bool,
        interceptors: [any RequestInterceptor]
    ) {
        self.deliversImmediately = deliversImmediately
        self.task = task
        self.meter = meter
        self.monitors = monitors
        self.monitored = monitored
        self.progress = progress
        self.deadlines = deadlines
        self.interceptors = interceptors
        answeredBy = interceptors.isEmpty ? nil : Locked(nil)
    }

    /// Counts an attempt that goes out as `request` with a body of `bodyLength` bytes, and tells the
    /// monitors; returns the attempt as they see it.
    func attemptStarted(_ request: URLRequest, bodyLength: Int) -> MonitoredAttempt? {
        let number = meter.beginAttempt(sending: bodyLength)
        guard let monitors, let monitored else { return nil }
        let attempt = MonitoredAttempt(of: monitored, number: number)
        monitors.emit {
            $0.didBuild(request, for: attempt)
            $0.didStart(attempt)
        }
        return attempt
    }

    /// Counts the end of an attempt, and tells the monitors about a reply that arrived in full.
    func attemptEnded(_ result: TransferResult, monitored attempt: MonitoredAttempt?) {
        task.transportFinished()
        answeredBy?.withLock { $0 = result.response?.url }
        meter.endAttempt(
            respondedAt: result.respondedAt,
            // A reply from the cache received no body over the network.
            receiving: result.cacheStatus.isFromCache ? 0 : result.body.count + Int(result.storedBytes))
        // Only a reply that arrived in full: not one cut off by a cancel, a timeout or the size limit.
        if let monitors, let attempt, result.error == nil, let response = result.response as? HTTPURLResponse
        {
            monitors.emit { $0.didReceive(response, body: result.body, for: attempt) }
        }
    }

    /// Tells the monitors that a failed attempt will be sent again, for a call they watch.
    var retryReporter: (@Sendable (FailedAttempt, TimeInterval) -> Void)? {
        guard let monitors, let monitored else { return nil }
        let meter = meter
        return { failed, delay in
            // The number monitors saw it built and started with: a stream's reconnections count on,
            // where the policy's count starts over after events arrived.
            let attempt = MonitoredAttempt(of: monitored, number: max(1, meter.latestAttempt))
            monitors.emit { $0.willRetry(attempt, after: delay, because: failed.error) }
        }
    }
}

/// An attempt's bookkeeping, the last stage before the cache and the transport: the attempt begun on the
/// call's task (which cancels it), metered and told to the monitors.
struct AttemptStage: RequestStage {
    let call: RequestCall

    func intercept(
        _ attempt: URLRequest, chain: RequestChain, completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        let task = call.task
        guard let number = task.beginAttempt() else {
            completion(TransferResult(failure: .cancelled))
            return {}
        }
        let bodyLength = chain.route.bodyLength.map(Int.init) ?? attempt.httpBody?.count ?? 0
        let monitored = call.attemptStarted(attempt, bodyLength: bodyLength)
        let call = call
        let cancel = chain.proceed(attempt) { result in
            call.attemptEnded(result, monitored: monitored)
            completion(result)
        }
        task.attach(cancellingWith: cancel, toAttempt: number)
        return cancel
    }
}
