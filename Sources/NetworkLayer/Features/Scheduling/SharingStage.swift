import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The stage below a caller's attempt, for a request that may share (see
/// ``RequestScheduling/sharesIdenticalRequests``): an attempt identical on the wire to one in flight (see
/// ``SharingKey``) waits for that one's reply instead of going out. Each caller's policies and attempt
/// bookkeeping sit above, so its interceptors, retries and monitors are its own.
///
/// The shared request (the cache, the origin's gate, the transport) runs inline in the attempt of the
/// caller that started it, registered so that others join; it ends when its last caller leaves, whoever
/// started it. Only the origin's gate reads a call (a deadline that refuses, a priority, the time queued):
/// when it is passed, it reads one of the shared request's own, a task no caller's cancel or time limit
/// ends, which meters it, and no monitors. Each caller's metrics count its own attempts, and the time the
/// shared request waited for its origin: a caller that leaves, the waits already over, and all of it when
/// it was the last (leaving ends the wait under way, which only the gate measures).
struct SharingStage: RequestStage {
    let flights: InFlightRequests<SharingKey, SharedReply>
    /// The caller's call: its time limit decides a rate-limit refusal; its priority, the shared request's.
    let call: RequestCall
    /// The cache partition the stage below reads and writes (read before the interceptors ran).
    let account: String?
    /// What else decides the reply below this stage.
    let shaping: SharingKey.Shaping
    /// The stages below, as the caller runs them alone; a shared request runs the gate on its own call.
    /// `nil` for a stage the request doesn't pass.
    let cache: CacheStage?
    let gate: OriginGate?

    func intercept(
        _ request: URLRequest, chain: RequestChain, completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        // An interceptor gave the attempt a body or another method: it goes on its own.
        guard SharingKey.mayShare(request) else {
            return proceed(request, below: chain, gate: gate, completion: completion)
        }
        // No scheduler (yet): nothing below reads a call. A later attempt of a caller looks again.
        let (scheduler, task) = (gate?.scheduler(), call.task)
        // A caller that can't wait for its origin's pause fails now, whoever else waits.
        if let gate, let scheduler, gate.waitsForRateLimit, !scheduler.isIdle,
            let origin = request.url.flatMap(Origin.init),
            let until = scheduler.refusal(origin, deadline: task.deadline, priority: task.priority)
        {
            completion(TransferResult(failure: .rateLimited(until: until)))
            return {}
        }
        // The cookie is read once, here: the shared request carries it, however long it waits below.
        let chain = chain.pinningCookie(for: request)
        let key = SharingKey(
            request, sessionCookie: chain.cookie?.header, account: account, shaping: shaping)
        // The shared request's own task, which the gate reads (made before the caller knows whether it starts
        // the request: its flight keeps the starter's, to tell a caller that leaves the time it waited).
        let queueTask = scheduler.map { _ in
            RequestTask(
                delivery: .immediate, failureHandler: { _ in }, priority: task.priority, clock: task.clock)
        }
        // The caller's attempt stage links the returned leave to the caller's task.
        return flights.join(
            key,
            completion: { shared, callers in
                if callers > 1 || shared.queued.nanoseconds > 0 {
                    task.addShared(queued: shared.queued, callers: callers)
                }
                completion(shared.result)
            },
            onLeave: { sofar in
                if let queued = sofar?.queued, queued.nanoseconds > 0 {
                    task.addShared(queued: queued, callers: nil)
                }
                completion(TransferResult(failure: .cancelled))
            },
            sofar: queueTask.map(Self.waited),
            start: { startShared(request, chain: chain, task: queueTask, finish: $0) })
    }

    /// What a caller that leaves is told of a shared request waiting on `task`: the time it waited.
    private static func waited(on task: RequestTask) -> @Sendable () -> SharedReply {
        { SharedReply(result: TransferResult(failure: .cancelled), queued: task.queued) }
    }

    private func startShared(
        _ request: URLRequest, chain: RequestChain, task: RequestTask?,
        finish: @escaping @Sendable (SharedReply) -> Void
    ) -> @Sendable () -> Void {
        guard var gate, let task else {
            return proceed(request, below: chain, gate: nil) {
                finish(SharedReply(result: $0, queued: (0, 0)))
            }
        }
        // It goes out at its starter's priority, which may still change while it waits.
        call.task.observePriority { task.priority = $0 }
        gate.call = RequestCall(task: task, observer: nil, deliversImmediately: call.deliversImmediately)
        let cancel = proceed(request, below: chain, gate: gate) { result in
            finish(SharedReply(result: result, queued: task.queued))
        }
        return {
            task.cancel()
            cancel()
        }
    }

    /// Sends `request` through the cache and `gate` to the transport.
    private func proceed(
        _ request: URLRequest, below chain: RequestChain, gate: OriginGate?,
        completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        var below = chain
        // Built without a literal: the common case (no cache, no gate) allocates nothing.
        var stages: [any RequestStage] = []
        if let cache { stages.append(cache) }
        if let gate { stages.append(gate) }
        below.stages = stages[...]
        return below.proceed(request, completion: completion)
    }
}

/// What a shared request hands each caller: its result, and how long it waited for its origin.
struct SharedReply: Sendable {
    let result: TransferResult
    let queued: RequestTask.Queued
}
