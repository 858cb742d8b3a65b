import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One concern of the pipeline between a call and the transport (the policies, an attempt's bookkeeping,
/// the cache): it gets an attempt's request and the rest of the chain, answers the request itself or
/// passes it on (changed or not, once or more), and reports once through `completion`.
///
/// Stages are the library's own: their order carries its guarantees (a reply stored for one user never
/// reaches another), so apps extend a request through ``RequestInterceptor`` and ``NetworkMonitor``.
protocol RequestStage: Sendable {
    /// Handles `request`; `completion` runs exactly once.
    ///
    /// - Returns: What cancels the work under way, safe to call from any thread, any number of times.
    func intercept(
        _ request: URLRequest, chain: RequestChain, completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void
}

/// The stages after the current one, ending at the transport.
struct RequestChain: Sendable {
    var stages: ArraySlice<any RequestStage>
    let transport: any AttemptTransport
    let route: TransportRoute
    let redirectPolicy: RedirectPolicy
    /// Passed to the transport (`URLSessionTask.priority` on Apple platforms): the attempt stage sets it,
    /// and the origin's gate again after a wait.
    var priority = RequestPriority.default
    /// The cookie the attempt carries, once a stage that keys by it read it (``pinningCookie(for:)``).
    var cookie: PinnedCookie?
    /// Told each reply the transport brings, with the URL it was sent to, when the layer watches for rate
    /// limits: a reply asking a pause holds its origin. The origin's gate takes it over when it counts or
    /// holds the attempt (see ``OriginGate``).
    var watchesPauses: (@Sendable (TransferResult, URL?) -> Void)?

    /// This chain with the cookie `request` carries read now, unless a stage above already did. Sharing
    /// and the cache key an attempt by its cookie before the origin's gate, where it may wait across a
    /// sign-out and sign-in: the transport then sends this cookie, not the storage's when it goes out.
    func pinningCookie(for request: URLRequest) -> RequestChain {
        guard cookie == nil else { return self }
        var pinned = self
        pinned.cookie = transport.pinnedCookie(for: request)
        return pinned
    }

    /// Hands `request` to the next stage, or to the transport after the last.
    func proceed(
        _ request: URLRequest, completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        guard let next = stages.first else {
            var completion = completion
            if let watch = watchesPauses {
                let (url, told) = (request.url, completion)
                completion = { result in
                    // Read once: the watch looks them over, and the stages above and the call take them.
                    let result = result.readingHeaders()
                    watch(result, url)
                    told(result)
                }
            }
            return transport.send(
                request, route: route, redirectPolicy: redirectPolicy, priority: priority, cookie: cookie,
                completion: completion)
        }
        var rest = self
        rest.stages = stages.dropFirst()
        return next.intercept(request, chain: rest, completion: completion)
    }
}

extension TransferResult {
    /// An attempt that ended in the pipeline, before or instead of a reply: the call delivers `error`.
    init(failure error: NetworkError) {
        self.init(body: Data(), response: nil, error: error, respondedAt: nil)
    }

    /// This result with its reply's fields read into ``headers``, unless a stage did already.
    func readingHeaders() -> TransferResult {
        guard headers == nil, let response = response as? HTTPURLResponse else { return self }
        var result = self
        result.headers = ResponseHeaders(response)
        return result
    }

    func marked(_ cacheStatus: CacheStatus, because reason: CacheReason) -> TransferResult {
        var result = self
        (result.cacheStatus, result.cacheReason) = (cacheStatus, reason)
        return result
    }
}
