import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The last stage before the transport: an attempt waits here while its origin is over the budget or held
/// by a server's pause, which a reply may ask of every request of the layer. Below the policies, so a retry
/// is one attempt more and its wait runs beside the pause; below the cache, so a stored reply never waits.
struct OriginGate: RequestStage {
    typealias Completion = @Sendable (TransferResult) -> Void

    /// The layer's: one budget and one pause per origin, whatever the request.
    let scheduler: OriginScheduler
    /// The task (its priority and deadline) and meter (the time queued) of the call, or of a shared
    /// request (``SharingStage`` sets its own).
    var call: RequestCall
    /// Whether the attempt counts against the budget: streams don't.
    let counts: Bool
    let waitsForRateLimit: Bool
    /// Whether replies may hold the origin: the layer's setting.
    let observesRateLimits: Bool

    func intercept(
        _ request: URLRequest, chain: RequestChain, completion: @escaping Completion
    ) -> @Sendable () -> Void {
        let task = call.task
        var chain = chain
        chain.priority = task.priority
        let ready = chain
        let (scheduler, counts, observes) = (scheduler, counts && scheduler.budget != nil, observesRateLimits)
        // Most requests: no budget and no origin held.
        guard counts || !scheduler.isIdle, let origin = request.url.flatMap(Origin.init) else {
            return chain.proceed(request, completion: observing(completion, for: request.url))
        }
        let running = DeferredCancel()
        let (meter, clock, queuedAt) = (call.meter, scheduler.clock, scheduler.clock.now)
        let start = { @Sendable (waited: Bool) in
            var chain = ready
            if waited {
                meter.addQueued(nanoseconds: clock.now.uptimeNanoseconds - queuedAt.uptimeNanoseconds)
                chain.priority = task.priority
            }
            running.attach(
                chain.proceed(request) { result in
                    scheduler.finished(
                        origin, counted: counts,
                        pause: observes ? Self.pause(of: result, now: clock.date) : nil)
                    completion(result)
                })
        }
        switch scheduler.enter(
            origin, counts: counts, waitsForRateLimit: waitsForRateLimit, priority: task.priority,
            deadline: task.deadline, start: { start(true) })
        {
        case .admitted:
            start(false)
            return running.cancel
        case .refused(let until):
            completion(TransferResult(failure: .rateLimited(until: until)))
            return {}
        case .waiting(let id):
            task.observePriority { scheduler.reprioritize(id, in: origin, to: $0) }
            return {
                guard scheduler.withdraw(id, from: origin) else { return running.cancel() }
                completion(TransferResult(failure: .cancelled))
            }
        }
    }

    /// A completion that holds the origin when the reply asks for a pause.
    private func observing(
        _ completion: @escaping Completion, for url: URL?
    ) -> Completion {
        guard observesRateLimits else { return completion }
        let scheduler = scheduler
        return { result in
            if let pause = Self.pause(of: result, now: scheduler.clock.date),
                let origin = url.flatMap(Origin.init)
            {
                scheduler.finished(origin, counted: false, pause: pause)
            }
            completion(result)
        }
    }

    private static func pause(of result: TransferResult, now: @autoclosure () -> Date) -> TimeInterval? {
        guard let response = result.response as? HTTPURLResponse else { return nil }
        return RateLimitFields.pause(
            statusCode: response.statusCode, field: response.value(forHTTPHeaderField:), now: now())
    }
}
