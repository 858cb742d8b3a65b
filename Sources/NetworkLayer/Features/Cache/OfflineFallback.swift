import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache's stage above the policies: serves the stored reply for a named account's request whose
/// attempts failed for lack of a connection (a token refresh that couldn't reach its server fails before
/// ``CacheStage`` could answer), and answers its request that only the cache may answer at once, before
/// any interceptor (no token refresh delays or fails it). The account's partition needs no credentials.
struct OfflineFallback: RequestStage {
    private let stage: CacheStage
    private let lookup: ResponseCache.Lookup
    private let expectation: ReplyExpectation

    /// `nil` when nothing could be served: no cache or account, not a plain `GET`, or a policy that
    /// wants the network.
    init?(
        _ caching: CacheStage?, request: URLRequest, route: TransportRoute,
        expecting expectation: ReplyExpectation
    ) {
        guard let caching, let account = caching.account, caching.policy != .reloadIgnoringCache,
            case .data = route, let url = request.url, CacheStage.mayAnswer(request)
        else { return nil }
        (stage, self.expectation) = (caching, expectation)
        lookup = ResponseCache.Lookup(
            url: url, headers: HeaderFields(request.allHTTPHeaderFields ?? [:]), account: account,
            credentials: caching.credentials)
    }

    func intercept(
        _ request: URLRequest, chain: RequestChain, completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        // Never sent, so no attempt: the cache's own stage answers or fails it as it would below.
        if stage.policy == .returnCacheDataDontLoad {
            return stage.intercept(request, chain: chain, completion: completion)
        }
        return chain.proceed(request) { result in
            guard let error = result.error.map(NetworkError.init(transportError:)),
                Self.isConnectivityFailure(error)
            else { return completion(result) }
            guard stage.cache.disk != nil else { return completion(reply(after: error) ?? result) }
            // A lookup may read the disk: not on the queue that ended the attempts (maybe the caller's).
            Queues.work.async {
                completion(reply(after: error) ?? result)
            }
        }
    }

    /// The stored reply, marked stale by `error`, when the policy allows one and the request accepts it.
    func reply(after error: NetworkError) -> TransferResult? {
        guard stage.isForItsAccount, let stored = stage.cache.entry(for: lookup),
            let reply = stage.standIn(stored, for: error, request: lookup.headers, because: .offline),
            case .success = ResponseValidator.validate(reply, expecting: expectation)
        else { return nil }
        return reply
    }

    /// Whether `error` says the network or server couldn't be reached (not a reply the server gave).
    static func isConnectivityFailure(_ error: NetworkError) -> Bool {
        switch error {
        case .timedOut: return true
        case .transport(let error): return connectivityCodes.contains(error.code)
        default: return false
        }
    }

    private static let connectivityCodes: Set<URLError.Code> = [
        .notConnectedToInternet, .cannotConnectToHost, .networkConnectionLost, .cannotFindHost,
        .dnsLookupFailed, .timedOut, .internationalRoamingOff, .dataNotAllowed, .callIsActive,
    ]
}
