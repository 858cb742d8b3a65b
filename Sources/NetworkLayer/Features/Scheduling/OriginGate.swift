import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The last stage before the transport: an attempt waits here while its origin is over the budget or held
/// by a server's pause, which a reply may ask of every request of the layer. Below the policies, so a retry
/// is one attempt more and its wait runs beside the pause; below the cache, so a stored reply never waits.
///
/// It acts only once the layer has a scheduler (``NetworkLayer/origins(making:)``): with a budget, or
/// after a reply asked a pause. Until then the chain's end watches replies for one
/// (``RequestChain/watchesPauses``), as it does for an attempt the gate neither counts nor holds.
struct OriginGate: RequestStage {
    /// The layer's scheduler (one budget and one pause per origin, whatever the request), looked up at each
    /// attempt: a layer makes it at the first pause a reply asks, maybe while this request is under way, and
    /// its retries must wait beside that pause.
    let scheduler: @Sendable () -> OriginScheduler?
    /// The task (its priority, deadline and the time queued) of the call, or of a shared
    /// request (``SharingStage`` sets its own).
    var call: RequestCall
    /// Whether the attempt counts against the budget: streams don't.
    let counts: Bool
    let waitsForRateLimit: Bool
    /// Whether replies may hold the origin: the layer's setting.
    let observesRateLimits: Bool

    func intercept(
        _ request: URLRequest, chain: RequestChain, completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        let task = call.task
        var chain = chain
        chain.priority = task.priority
        // Most requests: no scheduler yet, or no budget and no origin held; the chain's end watches the reply.
        guard let scheduler = scheduler(), case let counts = counts && scheduler.budget != nil,
            counts || !scheduler.isIdle, let origin = request.url.flatMap(Origin.init)
        else { return chain.proceed(request, completion: completion) }
        let observes = observesRateLimits
        // Its report below tells the pause, with the attempt's place in the budget.
        chain.watchesPauses = nil
        let ready = chain
        let running = DeferredCancel()
        let queuedAt = scheduler.clock.now
        // `rateLimited`: of the time queued, how long a rate limit held the origin; `nil` when it went at once.
        let start = { @Sendable (rateLimited: UInt64?, probing: Bool) in
            var chain = ready
            if let rateLimited {
                task.addQueued(since: queuedAt, rateLimited: rateLimited)
                chain.priority = task.priority
            }
            running.attach(
                chain.proceed(request) { result in
                    Self.report(
                        result, from: origin, counted: counts, probing: probing, observes: observes,
                        to: scheduler)
                    completion(result)
                })
        }
        let entered = scheduler.enter(
            origin, counts: counts, waitsForRateLimit: waitsForRateLimit, priority: task.priority,
            deadline: task.deadline, start: { start($0, false) })
        switch entered {
        case .admitted, .probing:
            start(nil, entered == .probing)
            return running.cancel
        case .refused(let until):
            completion(TransferResult(failure: .rateLimited(until: until)))
            return {}
        case .waiting(let id):
            task.observePriority { scheduler.reprioritize(id, in: origin, to: $0) }
            // A cancel or the time limit withdraws it: the time it waited counts all the same.
            return {
                guard let rateLimited = scheduler.withdraw(id, from: origin) else { return running.cancel() }
                task.addQueued(since: queuedAt, rateLimited: rateLimited)
                completion(TransferResult(failure: .cancelled))
            }
        }
    }

    /// Tells `scheduler` an attempt to `origin` ended: its place in the budget, the pause its reply asks,
    /// and a probe's success, which lifts `origin`'s hold. The pause holds the origin that answered, which
    /// the reply's URL names: after a redirect, the target, not the origin redirected from.
    private static func report(
        _ result: TransferResult, from origin: Origin, counted: Bool, probing: Bool, observes: Bool,
        to scheduler: OriginScheduler
    ) {
        let response = result.response as? HTTPURLResponse
        let pause = observes ? RateLimitFields.pause(of: response, now: scheduler.clock.date) : nil
        // Any reply below 400 that asks no pause: the server takes requests again.
        let lifts = probing && pause == nil && response.map { $0.statusCode < 400 } == true
        let answering = pause == nil ? origin : response?.url.flatMap(Origin.init) ?? origin
        scheduler.finished(
            origin, counted: counted, pause: answering == origin ? pause : nil,
            pauseOver: lifts ? .distantFuture : nil)
        if answering != origin { scheduler.finished(answering, counted: false, pause: pause) }
    }
}
