import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The first stage of a request that may share (see ``RequestScheduling/sharesIdenticalRequests``):
/// identical requests in flight at once share one network request. It runs the stages below on a call of
/// its own (a task no caller's cancel or time limit ends, a meter, no deadline), so a retry is one retry
/// for all, and ends when its last caller leaves. The caller who started it lends it its monitors, which
/// see its attempts; every caller's monitors see that caller's request start and finish, and each caller's
/// metrics are the shared request's.
struct SharingStage: RequestStage {
    let flights: InFlightRequests<SharingKey, SharedReply>
    let scheduler: OriginScheduler
    /// The request's identity.
    let key: SharingKey
    /// The caller's call.
    let call: RequestCall
    let waitsForRateLimit: Bool
    /// The stages below sharing, for the shared request's call.
    let stagesBelow: @Sendable (RequestCall) -> [any RequestStage]

    func intercept(
        _ request: URLRequest, chain: RequestChain, completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        let task = call.task
        // A caller that can't wait for its origin's pause fails now, whoever else waits.
        if waitsForRateLimit, !scheduler.isIdle, let origin = request.url.flatMap(Origin.init),
            let until = scheduler.refusal(origin, deadline: task.deadline)
        {
            completion(TransferResult(failure: .rateLimited(until: until)))
            return {}
        }
        guard let number = task.beginAttempt() else {
            completion(TransferResult(failure: .cancelled))
            return {}
        }
        let meter = call.meter
        let leave = flights.join(
            key,
            completion: { shared in
                meter.adopt(shared.meter)
                task.transportFinished()
                completion(shared.result)
            },
            onLeave: { completion(TransferResult(failure: .cancelled)) },
            start: { startShared(request, chain: chain, finish: $0) })
        task.attach(cancellingWith: leave, toAttempt: number)
        return leave
    }

    private func startShared(
        _ request: URLRequest, chain: RequestChain, finish: @escaping @Sendable (SharedReply) -> Void
    ) -> @Sendable () -> Void {
        let caller = call
        let task = RequestTask(delivery: .immediate, failureHandler: { _ in }, priority: caller.task.priority)
        // It goes out at its starter's priority, which may still change while it waits.
        caller.task.observePriority { task.priority = $0 }
        let meter = RequestMeter(eventCount: nil, clock: caller.deadlines.clock)
        let shared = RequestCall(
            task: task, meter: meter, observer: caller.observer, deadlines: caller.deadlines,
            deliversImmediately: caller.deliversImmediately)
        var below = chain
        below.stages = stagesBelow(shared)[...]
        // The task stops the attempt under way and any later one; the chain's cancel, a wait between them.
        let cancelChain = below.proceed(request) { finish(SharedReply(result: $0, meter: meter)) }
        return {
            task.cancel()
            cancelChain()
        }
    }
}

/// The identity of a request for sharing: method, URL without its fragment, the account it is for (`nil`
/// when none is named: then the credentials it carries, among its fields, tell callers apart), every
/// header field but ``RequestScheduling/headerFieldsIgnoredForSharing``, and what else decides what its
/// reply becomes below sharing (`shaping`: limits and policies). Hashed, never formatted: it is made for
/// every request that may share.
struct SharingKey: Hashable, Sendable {
    let method: String
    let url: String
    let account: String?
    let fields: [String: String]
    let shaping: Shaping

    /// What decides what a reply becomes below sharing, besides the request itself.
    struct Shaping: Hashable, Sendable {
        let sizeLimit: Int
        let timeout: TimeInterval
        let redirectPolicy: RedirectPolicy
        let cachePolicy: CachePolicy
        let retryPolicy: RetryPolicy
        let acceptableStatusCodes: Set<Int>?
        let acceptableContentTypes: [String]?
        let deliversImmediately: Bool
        let waitsForRateLimits: Bool
    }

    init(_ request: URLRequest, account: String?, shaping: Shaping) {
        method = request.httpMethod ?? "GET"
        // Without its fragment, as the cache keys it.
        url = request.url.map(CacheKey.normalized) ?? ""
        self.account = account
        let ignored = RequestScheduling.headerFieldsIgnoredForSharing
        var fields: [String: String] = [:]
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            let name = name.lowercased()
            if !ignored.contains(name) { fields[name] = value }
        }
        self.fields = fields
        self.shaping = shaping
    }
}

/// What a shared request hands each caller: its result, and its meter, for the caller's metrics.
struct SharedReply: Sendable {
    let result: TransferResult
    let meter: RequestMeter
}
