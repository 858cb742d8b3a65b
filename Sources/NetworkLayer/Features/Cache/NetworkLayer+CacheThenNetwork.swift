import Foundation

extension NetworkLayer {
    /// Delivers the stored reply to `request` as soon as the cache is read, then the network's.
    ///
    /// ```swift
    /// network.sendCacheThenNetwork(
    ///     NetworkRequest<[Todo]>(urlString: "todos"),
    ///     updateHandler: { response in view.show(response.value) },
    ///     completionHandler: { error in view.showOfflineBanner(error != nil) })
    /// ```
    ///
    /// `updateHandler` runs once or twice, in order: with the stored reply when there is one, however
    /// old (its ``NetworkResponse/cacheStatus`` is ``CacheStatus/hit``, or ``CacheStatus/staleHit`` once
    /// it is stale), then with the network's (``CacheStatus/network``), or, when the server answers 304,
    /// with the stored value again as ``CacheStatus/revalidated``: nothing changed. `completionHandler`
    /// runs once, after the updates: `nil` when the network answered, else its error; a stored reply
    /// delivered before stands. The stored phase is a request only the cache may answer
    /// (``CachePolicy/returnCacheDataDontLoad``), the network phase one that revalidates what is stored
    /// (``CachePolicy/revalidate``): `request`'s own ``NetworkRequest/cachePolicy`` is not used. A request
    /// the cache never answers (not a `GET`, a transfer, a layer without a ``cache``) has only the
    /// network phase. For a named account (see <doc:CachingAndOffline>) the stored reply is read before
    /// the interceptors run, so no token refresh delays it.
    ///
    /// Cancelling the task ends both phases: no update runs after it, and the completion receives
    /// ``NetworkError/cancelled``. ``cancelAll()`` cancels it too.
    ///
    /// - Parameters:
    ///   - request: What to send, and what the reply becomes.
    ///   - updateHandler: Receives the stored reply, then the network's, on ``callbackQueue``.
    ///   - completionHandler: Receives `nil` or the network phase's error on ``callbackQueue``, once,
    ///     after the updates.
    /// - Returns: The call, which can be cancelled.
    @discardableResult
    public func sendCacheThenNetwork<Value>(
        _ request: NetworkRequest<Value>,
        updateHandler: @escaping (NetworkResponse<Value>) -> Void,
        completionHandler: @escaping (NetworkError?) -> Void
    ) -> NetworkTask {
        runningRequests.track(
            successHandler: completionHandler, errorHandler: { completionHandler($0) },
            start: { finish, _ in
                let call = CacheThenNetworkCall(
                    request, on: self, updateHandler: updateHandler, completionHandler: finish)
                call.start(readsStore: mayBeStored(request))
                return call.call
            })
    }

    /// The responses of ``sendCacheThenNetwork(_:updateHandler:completionHandler:)`` as an `async`
    /// sequence: the stored reply when there is one, then the network's. When the network fails, the
    /// sequence throws its error after the stored reply.
    ///
    /// ```swift
    /// let request = NetworkRequest<[Todo]>(urlString: "todos")
    /// do {
    ///     for try await response in network.sendCacheThenNetwork(request) {
    ///         show(response.value)
    ///     }
    /// } catch {
    ///     showOfflineBanner()
    /// }
    /// ```
    ///
    /// The request starts with the first `next()`; cancelling the task, or no longer iterating, cancels it.
    ///
    /// - Parameter request: What to send, and what the reply becomes.
    /// - Returns: One or two responses.
    public func sendCacheThenNetwork<Value: Sendable>(_ request: NetworkRequest<Value>)
        -> NetworkStream<NetworkResponse<Value>>
    {
        // The handlers only feed the stream: they run where each outcome is settled.
        var immediate = request
        immediate.deliversImmediately = true
        // Unchecked: only the request's handler-typed members aren't Sendable; it is used once, to start.
        let request = UncheckedSendable(value: immediate)
        return NetworkStream { buffer in
            self.sendCacheThenNetwork(
                request.value,
                updateHandler: { buffer.append([$0], StreamReceipt(isWanted: { true }, consumed: {})) },
                completionHandler: { error in
                    buffer.finish(
                        error.map { .failure($0) } ?? .success(StreamSummary(eventCount: 0, byteCount: 0)))
                })
        }
    }

    /// Whether the cache could hold a reply to `request`. A test double (a ``responder``) answers the
    /// stored phase from its script, with or without a cache.
    private func mayBeStored<Value>(_ request: NetworkRequest<Value>) -> Bool {
        guard cache != nil || responder != nil, request.transfer == nil,
            let built = try? builder.urlRequest(for: request)
        else { return false }
        return CacheStage.mayAnswer(built)
    }
}
