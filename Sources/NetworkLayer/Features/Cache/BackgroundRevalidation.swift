import Foundation

/// How a cache stage refreshes a reply it served within its `stale-while-revalidate` window (RFC 5861): the
/// request sent again through ``NetworkLayer/send(_:successHandler:errorHandler:)``, so the policies (a token
/// refresh), the layer's monitors and ``NetworkLayer/cancelAll()`` apply to it as to any request. Every cache
/// stage has one and it costs nothing until a stale reply is served: most requests never need the
/// revalidation, so the request it sends is made only then.
struct BackgroundRevalidation: Sendable {
    weak var layer: NetworkLayer?
    /// Makes the request sent again (``NetworkRequest/revalidation()``); a method of a copy never changed,
    /// called only where the revalidation starts.
    let request: UncheckedSendable<() -> NetworkRequest<Data>>

    /// Starts the revalidation, which calls `finished` once it is over; returns what cancels it.
    func start(finished: @escaping @Sendable () -> Void) -> @Sendable () -> Void {
        guard let layer else {
            finished()
            return {}
        }
        // A composed call of one step: it ends once, by the step's outcome, a cancel (`cancelAll()` or the
        // last waiter leaving) or its time limit, and a cancel before the step begins sends nothing.
        let again = UncheckedSendable(value: request.value())
        let call = ComposedCall(again.value, on: layer, errorHandler: { _ in finished() })
        // The step begins off the queue of the caller, who has its reply.
        Queues.work.async {
            call.send(
                .success(again.value), successHandler: { _ in call.succeed(finished) },
                errorHandler: { call.fail($0) })
        }
        return { call.cancel() }
    }
}

extension CacheStage {
    /// One revalidation per stored reply: a caller served it while one is under way joins that one. The
    /// join is kept: no caller waits for it, and only the layer (`cancelAll()`) or its end stops it.
    func revalidateInBackground(_ entry: CachedResponse) {
        guard let revalidation else { return }
        _ = cache.revalidations.join(
            entry.key, completion: { _, _ in }, start: { finish in revalidation.start { finish(()) } })
    }
}

extension NetworkRequest {
    /// This request as the layer sends it to revalidate its stored reply: the same URL, headers, account,
    /// interceptors and limits, with the stored validators (``CachePolicy/revalidate``, so it never serves
    /// stale while revalidating itself). Its reply is only stored, never decoded: its handlers, trivial,
    /// run where it ends.
    func revalidation() -> NetworkRequest<Data> {
        var again = NetworkRequest<Data>(
            method: method, urlString: urlString, query: query, queryItems: queryItems, headers: headers,
            body: body, timeout: timeout, maximumResponseSize: maximumResponseSize)
        again.endpoint = endpoint
        again.resourceTimeout = resourceTimeout
        again.retryPolicy = retryPolicy
        again.redirectPolicy = redirectPolicy
        again.interceptors = interceptors
        again.account = account
        again.priority = priority
        again.scheduling = scheduling
        again.cachePolicy = .revalidate
        again.deliversImmediately = true
        again.isRevalidation = true
        return again
    }
}
