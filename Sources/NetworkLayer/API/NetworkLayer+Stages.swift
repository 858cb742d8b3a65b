import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkLayer {
    /// The stages one request passes through, in order: the one place the order is written. Above the
    /// first is the call, which monitors the request and delivers its outcome; below the last, the
    /// transport. A stage a request doesn't need is not built.
    ///
    /// Sharing sits below the policies and the attempt's bookkeeping, so it keys each attempt as it goes
    /// on the wire: after every interceptor (the layer's, the request's, the authenticator) adapted it, with
    /// the cookie the session adds. A caller never receives a reply fetched with credentials its own request
    /// would not have carried. Each caller runs its own policies: a 401 its sharers all see makes one
    /// refresh (the authenticator coalesces them), then each caller's retry, shared when identical and in
    /// flight at once. The cache sits below the policies: a request that names no account is keyed by the
    /// credentials the interceptors add, which exist only there. Moving the cache's line above the
    /// policies' is the whole change once every cached request has an account (its attempts then begin
    /// below it, so a cached reply is no longer an attempt the monitors see). The origin's gate is last: a
    /// stored reply waits for nothing. A shared request runs the cache and the gate on a call of its own.
    func stages<Value>(
        for request: NetworkRequest<Value>, built: URLRequest, route: TransportRoute,
        expecting expectation: ReplyExpectation, stream: StreamSetup?, call: RequestCall
    ) -> [any RequestStage] {
        let scheduling = request.scheduling ?? scheduling
        var cache = cacheStage(for: request, stream: stream)
        if let observer = call.observer {
            cache?.reportMemoryOnly = { observer.cacheKeptInMemoryOnly(because: $0, claim: $1) }
        }
        var stages: [any RequestStage] = []
        // The cache's fallback: a named account's stored reply when the policies fail offline (a refresh
        // that couldn't reach its server).
        if let fallback = OfflineFallback(cache, request: built, route: route, expecting: expectation) {
            stages.append(fallback)
        }
        // Interceptors, authentication and refresh, retries.
        if let policies = policyStage(for: request, expecting: expectation, stream: stream, call: call) {
            stages.append(policies)
        }
        // Each attempt begun on the call's task, metered and told to the monitors.
        stages.append(AttemptStage(call: call))
        let gate = OriginGate(
            scheduler: parts.origins, call: call,
            // Streams hold a connection as long as they live; a request's own scheduling may exempt it.
            counts: stream == nil && scheduling.maximumRequestsPerOrigin != nil,
            waitsForRateLimit: scheduling.waitsForRateLimits && self.scheduling.waitsForRateLimits,
            observesRateLimits: self.scheduling.waitsForRateLimits)
        if scheduling.sharesIdenticalRequests, stream == nil, request.transfer == nil,
            case .data(let limit) = route, SharingKey.mayShare(built)
        {
            // What decides the shared reply below sharing, besides the attempt itself.
            let shaping = SharingKey.Shaping(
                sizeLimit: limit, redirectPolicy: redirectPolicy(for: request),
                cachePolicy: request.cachePolicy, waitsForRateLimits: gate.waitsForRateLimit,
                countsAgainstBudget: gate.counts)
            stages.append(
                SharingStage(
                    flights: parts.flights, call: call, account: cache?.account, shaping: shaping,
                    cache: cache,
                    gate: gate))
            return stages
        }
        if let cache { stages.append(cache) }
        stages.append(gate)
        return stages
    }

    /// A stream is never stored: its events are delivered as they arrive.
    private func cacheStage<Value>(for request: NetworkRequest<Value>, stream: StreamSetup?) -> CacheStage? {
        guard stream == nil, let cache else { return nil }
        let accountNow = cacheAccountReader(for: request)
        return CacheStage(
            cache: cache, policy: request.cachePolicy, clock: clock, account: accountNow(),
            accountNow: accountNow, revalidate: backgroundRevalidation(for: request),
            credentials: credentialHeaders.adding(request.redirectPolicy?.credentialHeaders ?? []))
    }

    /// For a request something may adapt or retry: a stream's progress starts its attempts afresh, and its
    /// reconnections add to the attempts and waits allowed.
    private func policyStage<Value>(
        for request: NetworkRequest<Value>, expecting expectation: ReplyExpectation, stream: StreamSetup?,
        call: RequestCall
    ) -> PolicyStage? {
        let policy = request.retryPolicy ?? retryPolicy
        // A request's own interceptors come after the layer's.
        let interceptors = Self.interceptors(
            layer: interceptors + request.interceptors, reconnection: stream?.reconnection,
            retries: policy.retries)
        guard !interceptors.isEmpty || policy.retries else { return nil }
        var progress: (@Sendable () -> Int)?
        if let state = stream?.state { progress = { state.progress } }
        return PolicyStage(
            call: call, interceptors: interceptors, checker: interceptors.isEmpty ? nil : builder,
            method: request.method,
            policy: policy, expectation: expectation,
            attemptLimit: RequestAttempts.attemptLimit + (stream?.reconnection.reconnectLimit ?? 0),
            longestWait: stream?.reconnection.maximumDelay, progress: progress)
    }
}
