import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The stored reply for a request for a named account whose attempts ended without the network's
/// answer for lack of a connection: a token refresh that couldn't reach its server fails in the
/// interceptor stage, before ``CachingTransport`` could serve anything. The partition is the account's,
/// known before the interceptors ran, so the cache can answer without the credentials they would add.
struct OfflineFallback: Sendable {
    private let cache: ResponseCache
    private let account: String
    private let policy: CachePolicy
    private let url: URL
    private let headers: HeaderFields
    private let expectation: ReplyExpectation
    /// Whether the request is still for `account`: after a sign-out or another user's sign-in, its
    /// replies are not shown.
    private let isForItsAccount: @Sendable () -> Bool

    /// A fallback for `request` (as built, before the interceptors), or `nil` when nothing could be
    /// served for it: no cache or account, not a plain `GET`, or a policy that wants the network's answer.
    init?(
        _ caching: CachingTransport?, request: URLRequest, route: TransportRoute,
        expecting expectation: ReplyExpectation
    ) {
        guard let caching, let account = caching.account, caching.policy != .reloadIgnoringCache,
            case .data = route, let url = request.url, (request.httpMethod ?? "GET").uppercased() == "GET",
            request.httpBody == nil, request.httpBodyStream == nil
        else { return nil }
        let headers = HeaderFields(request.allHTTPHeaderFields ?? [:])
        guard headers["Range"] == nil else { return nil }
        (cache, self.account, policy, self.url, self.headers, self.expectation) = (
            caching.cache, account, caching.policy, url, headers, expectation
        )
        isForItsAccount = { caching.isForItsAccount }
    }

    /// `deliver`, with a failure for lack of a connection turned into the stored reply when there is one
    /// the policy accepts.
    func answering(
        _ deliver: @escaping @Sendable (Result<Reply, NetworkError>) -> Void
    ) -> @Sendable (Result<Reply, NetworkError>) -> Void {
        { result in
            guard case .failure(let error) = result, Self.isConnectivityFailure(error) else {
                return deliver(result)
            }
            guard cache.disk != nil else {
                return deliver(reply(after: error).map { .success($0) } ?? result)
            }
            // A lookup may read the disk: not on the queue that ended the attempts (maybe the caller's).
            Queues.work.async {
                deliver(reply(after: error).map { .success($0) } ?? result)
            }
        }
    }

    /// The stored reply, marked stale by `error`, when the policy allows one.
    func reply(after error: NetworkError) -> Reply? {
        guard isForItsAccount(), let stored = cache.entry(for: url, request: headers, account: account)
        else { return nil }
        let now = Date()
        let allowed =
            switch policy {
            case .useCacheOnFailure, .returnCacheDataElseLoad, .returnCacheDataDontLoad: true
            case .useProtocolCachePolicy:
                CacheRules.isFresh(stored, request: headers, now: now)
                    || CacheRules.canServeStaleOnError(stored, now: now)
            case .revalidate: CacheRules.canServeStaleOnError(stored, now: now)
            case .reloadIgnoringCache: false
            }
        guard allowed else { return nil }
        return try? ResponseValidator.validate(
            CachingTransport.reply(from: stored, now: now), cacheStatus: .stale(error), expecting: expectation
        ).get()
    }

    /// Whether `error` says the network or the server couldn't be reached, as a refresh's or an
    /// attempt's error: not a reply the server gave.
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
