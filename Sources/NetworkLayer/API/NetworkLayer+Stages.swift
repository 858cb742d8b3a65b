import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkLayer {
    /// The stages one request passes through, in ``PipelineStage``'s order (the one list of it). Above the
    /// first is the call, which monitors the request and delivers its outcome; below the last, the
    /// transport. A stage a request doesn't need is not built.
    ///
    /// Sharing sits below the policies and the attempt's bookkeeping, so it keys each attempt as it goes
    /// on the wire: after every interceptor (the layer's, the request's, the authenticator) adapted it, with
    /// the cookie the session adds. A caller never receives a reply fetched with credentials its own request
    /// would not have carried. Each caller runs its own policies: a 401 its sharers all see makes one
    /// refresh (the authenticator coalesces them), then each caller's retry, shared when identical and in
    /// flight at once. The cache sits below the policies: a request that names no account is keyed by the
    /// credentials the interceptors add, which exist only there. Moving the cache's case above the
    /// policies' is the whole change once every cached request has an account (its attempts then begin
    /// below it, so a cached reply is no longer an attempt the monitors see). The origin's gate is last: a
    /// stored reply waits for nothing, and it acts only once the layer has a scheduler (a budget, or a
    /// pause a reply asked), which it looks up at each attempt: until then the chain's end watches replies
    /// (``pauseWatch()``). A shared request runs the cache and the gate inline, in the attempt of the caller
    /// that started it.
    func stages<Value>(
        for request: NetworkRequest<Value>, built: URLRequest, route: TransportRoute,
        expecting expectation: ReplyExpectation, stream: StreamSetup?, call: RequestCall
    ) -> [any RequestStage] {
        let scheduling = request.scheduling ?? scheduling
        var cache = cacheStage(for: request, stream: stream)
        if let observer = call.observer {
            cache?.reportMemoryOnly = { observer.cacheKeptInMemoryOnly(because: $0, claim: $1) }
        }
        // Streams hold a connection as long as they live; a request's own scheduling may exempt it.
        let counts = stream == nil && scheduling.maximumRequestsPerOrigin != nil
        let waits = scheduling.waitsForRateLimits && self.scheduling.waitsForRateLimits
        let budgets = self.scheduling.maximumRequestsPerOrigin != nil
        let gate = originGate(call: call, budgets: budgets, counts: counts, waits: waits)
        // One allocation: a default GET has two stages (the attempt, sharing), a request at most five.
        var stages: [any RequestStage] = []
        stages.reserveCapacity(PipelineStage.allCases.count)
        for kind in PipelineStage.allCases {
            switch kind {
            case .offlineFallback:
                // A named account's stored reply when the policies fail offline (a refresh that couldn't
                // reach its server): a request for no account has none.
                guard cache?.account != nil,
                    let fallback = OfflineFallback(
                        cache, request: built, route: route, expecting: expectation)
                else { continue }
                stages.append(fallback)
            case .policies:
                guard
                    let policies = policyStage(
                        for: request, expecting: expectation, stream: stream, call: call)
                else { continue }
                stages.append(policies)
            case .attempt:
                stages.append(AttemptStage(call: call))
            case .sharing:
                guard scheduling.sharesIdenticalRequests, stream == nil, request.transfer == nil,
                    case .data(let limit) = route, SharingKey.mayShare(built)
                else { continue }
                // What decides the shared reply below sharing, besides the attempt itself.
                let shaping = SharingKey.Shaping(
                    sizeLimit: limit, redirectPolicy: redirectPolicy(for: request),
                    cachePolicy: request.cachePolicy, waitsForRateLimits: waits,
                    countsAgainstBudget: counts && budgets)
                // The stages below run in the shared request, inline in its starter's attempt.
                stages.append(
                    SharingStage(
                        flights: parts.flights, call: call, account: cache?.account, shaping: shaping,
                        cache: cache, gate: gate))
                return stages
            case .cache:
                if let cache { stages.append(cache) }
            case .gate:
                if let gate { stages.append(gate) }
            }
        }
        return stages
    }

    /// A gate where an origin can ever be counted or held: a budget, or a layer that keeps a reply's pause.
    /// It looks the scheduler up at each attempt: the first pause makes it, maybe during this request.
    private func originGate(call: RequestCall, budgets: Bool, counts: Bool, waits: Bool) -> OriginGate? {
        guard budgets || keepsPauses else { return nil }
        return OriginGate(
            scheduler: { [weak self] in self?.origins(making: budgets) }, call: call, counts: counts,
            waitsForRateLimit: waits, observesRateLimits: scheduling.waitsForRateLimits)
    }

    /// What the chain's end tells of each reply (``RequestChain/watchesPauses``) on a layer that watches for
    /// rate limits: a reply asking a pause holds the origin that answered (after a redirect, the target),
    /// the first making the layer's scheduler. Not the gate's code: a layer never held passes none.
    func pauseWatch() -> (@Sendable (TransferResult, URL?) -> Void)? {
        guard keepsPauses else { return nil }
        let clock = clock
        return { [weak self] result, url in
            // The chain's end read the fields (``TransferResult/readingHeaders()``).
            guard let response = result.response as? HTTPURLResponse else { return }
            let headers = result.headers ?? ResponseHeaders(response)
            guard Self.mayAskPause(statusCode: response.statusCode, headers),
                let pause = RateLimitFields.pause(
                    statusCode: response.statusCode, field: { headers[$0] }, now: clock.date),
                let origin = response.url.flatMap(Origin.init) ?? url.flatMap(Origin.init)
            else { return }
            self?.origins(making: true)?.finished(origin, counted: false, pause: pause)
        }
    }

    /// Whether a reply may ask a pause (``RateLimitFields``): a 429 or 503, or a field named `RateLimit…` or
    /// `X-RateLimit…` in any case. Why here: most replies carry none, and one pass over their names costs
    /// less than the parse's lookups, each of which lowers the case of every name on Linux.
    static func mayAskPause(statusCode: Int, _ headers: ResponseHeaders) -> Bool {
        guard statusCode != 429, statusCode != 503 else { return true }
        return headers.fields.keys.contains { name in
            rateLimitPrefixes.contains { name.hasPrefixIgnoringASCIICase($0) }
        }
    }

    private static let rateLimitPrefixes = ["RateLimit", "X-RateLimit"]

    /// Whether a reply's pause may hold an origin: a ceiling of 0 or less (or NaN) keeps no hold.
    private var keepsPauses: Bool { scheduling.waitsForRateLimits && scheduling.maximumRateLimitWait > 0 }

    /// A stream is never stored: its events are delivered as they arrive.
    private func cacheStage<Value>(for request: NetworkRequest<Value>, stream: StreamSetup?) -> CacheStage? {
        guard stream == nil, let cache else { return nil }
        let accountNow = cacheAccountReader(for: request)
        return CacheStage(
            cache: cache, policy: request.cachePolicy, clock: clock, account: accountNow(),
            accountNow: accountNow,
            revalidation: BackgroundRevalidation(
                layer: self, request: UncheckedSendable(value: request.revalidation)),
            credentials: credentialHeaders(for: request))
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

/// The stages between a call and its transport, in the order a request passes them: the one list of it,
/// which ``NetworkLayer/stages(for:built:route:expecting:stream:call:)`` follows and the articles
/// (<doc:RequestPipeline>, the overview's table) repeat in prose; a test compares them.
enum PipelineStage: CaseIterable {
    case offlineFallback, policies, attempt, sharing, cache, gate

    /// What the articles call the stage.
    var title: String {
        switch self {
        case .offlineFallback: "The cache's offline fallback"
        case .policies: "Policies"
        case .attempt: "The attempt"
        case .sharing: "Sharing"
        case .cache: "The cache"
        case .gate: "The origin's gate"
        }
    }
}
