import Foundation

// `stale-while-revalidate` (RFC 5861): the cache stage serves a stale reply at once and has the layer
// send the request again in the background, as an ordinary request.

extension CacheStage {
    /// One revalidation per stored reply: a caller served it while one is under way joins that one. The
    /// join is kept: no caller waits for it, and only the layer (`cancelAll()`) or its end stops it.
    func revalidateInBackground(_ entry: CachedResponse) {
        guard let revalidate else { return }
        let key = entry.key.url + "\n" + entry.key.partition.tag
        _ = cache.revalidations.join(
            key, completion: { _ in },
            start: { finish in
                // The request begins off the queue of the caller, who has its reply.
                let cancel = DeferredCancel()
                Queues.work.async { cancel.attach(revalidate { finish(()) }) }
                return { cancel.cancel() }
            })
    }
}

extension NetworkLayer {
    /// How a cache stage refreshes a reply it served within its `stale-while-revalidate` window: the
    /// request sent again through ``send(_:successHandler:errorHandler:)``, so the policies (a token
    /// refresh), the layer's monitors and ``cancelAll()`` apply to it as to any request. `nil` for a request
    /// that never serves stale while revalidating, the revalidation itself included.
    func backgroundRevalidation<Value>(for request: NetworkRequest<Value>) -> CacheStage.Revalidation? {
        guard [.useProtocolCachePolicy, .useCacheOnFailure].contains(request.cachePolicy),
            request.transfer == nil, !request.isRevalidation
        else { return nil }
        // A copy never changed, only read on the queue the revalidation starts on; most requests never need
        // the revalidation, so it is built only then.
        let original = UncheckedSendable(value: request)
        return { [weak self] finished in
            guard let self else {
                finished()
                return {}
            }
            let task = send(
                original.value.revalidation(), successHandler: { _ in finished() },
                errorHandler: { _ in finished() })
            return { task.cancel() }
        }
    }
}

extension NetworkRequest {
    /// This request as the layer sends it to revalidate its stored reply: the same URL, headers, account,
    /// interceptors and limits, with the stored validators (``CachePolicy/revalidate``). Its reply is only
    /// stored, never decoded: its handlers, trivial, run where it ends.
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
