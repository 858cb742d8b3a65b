import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The cache's stage, below the policies: serves from the cache, revalidates (in the background too, for
/// `stale-while-revalidate`), stores, and serves stale on failure. Identical requests in flight share
/// above it (``SharingStage``).
/// It sees the attempt after the interceptors, so the credential actually sent keys the entry, unless
/// the request names an account, whose partition then does.
struct CacheStage: RequestStage {
    let cache: ResponseCache
    let policy: CachePolicy
    let clock: any NetworkClock
    /// Read before the interceptors ran.
    var account: String? = nil
    /// The account the request is for now: once it differs from ``account`` (sign-out, another user), the
    /// token added may be another user's, so the account's partition is neither read nor written.
    var accountNow: (@Sendable () -> String?)? = nil

    /// Sends the request again in the background as an ordinary request of the layer, to refresh a reply
    /// served within its `stale-while-revalidate` window; `nil`: such a reply is revalidated before it is
    /// served, as any stale one. Only the policies that serve stale replies use it.
    var revalidation: BackgroundRevalidation? = nil
    /// The request's credential headers: its layer's list, plus its own redirect policy's. Passed with every
    /// lookup and store, not kept by the cache: layers with different lists may share one.
    var credentials = CredentialHeaderNames()
    /// Tells the call's monitors when a disk cache keeps a reply in memory only; `nil` without monitors.
    var reportMemoryOnly: ResponseCache.MemoryOnlyReport? = nil

    var isForItsAccount: Bool { accountNow.map { $0() == account } ?? true }

    typealias Completion = @Sendable (TransferResult) -> Void

    func intercept(
        _ request: URLRequest, chain: RequestChain, completion: @escaping Completion
    ) -> @Sendable () -> Void {
        guard cache.disk != nil else { return decide(request, chain: chain, completion: completion) }
        // A lookup may read the disk: never on the caller's queue (usually the main queue).
        let cancel = DeferredCancel()
        Queues.work.async {
            cancel.attach(decide(request, chain: chain, completion: completion))
        }
        return { cancel.cancel() }
    }

    private func decide(
        _ request: URLRequest, chain: RequestChain, completion: @escaping Completion
    ) -> @Sendable () -> Void {
        let answers = Self.mayAnswer(request)
        guard let url = request.url, case .data = chain.route,
            answers || Self.mayAnswer(request, method: "HEAD")
        else {
            return sendUncached(request, chain: chain, completion: completion)
        }
        // Keyed by the cookie read now, which the attempt then carries, however long it waits below.
        let chain = chain.pinningCookie(for: request)
        let lookup = self.lookup(request, url: url, chain: chain)
        // Read after the interceptors ran, so that the token they added belongs to the account.
        let forItsAccount = isForItsAccount
        let stored = forItsAccount ? cache.entry(for: lookup) : nil
        if !answers {
            return sendUncached(request, head: (lookup, stored), chain: chain, completion: completion)
        }
        let missing: CacheReason = forItsAccount ? .notStored : .accountChanged
        // Nothing stored, and nothing asks the cache alone to answer (a miss, most often): nothing to decide.
        guard stored != nil || policy == .returnCacheDataDontLoad || lookup.headers["Cache-Control"] != nil
        else {
            return send(request, lookup, stored: nil, because: missing, chain: chain, completion: completion)
        }
        let now = clock.date
        let strategy = CacheStrategy.decide(
            policy: policy, stored: stored, request: lookup.headers, now: now,
            revalidatesInBackground: revalidation != nil)
        let reason =
            stored == nil ? missing : strategy.reason(policy: policy, request: lookup.headers, now: now)
        guard case .network(let conditions, _) = strategy else {
            answer(strategy, because: reason, now: now, completion: completion)
            return {}
        }
        return send(
            request, adding: conditions, lookup, stored: stored, because: reason, chain: chain,
            completion: completion)
    }

    /// Answers from the cache without waiting for the network.
    private func answer(
        _ strategy: CacheStrategy, because reason: CacheReason, now: Date, completion: Completion
    ) {
        switch strategy {
        case .serve(let entry):
            // The reason already judged its freshness: a stale entry served is one the policy accepts.
            let stale = reason == .policyAcceptsStored
            completion(Self.reply(from: entry, now: now).marked(stale ? .staleHit : .hit, because: reason))
        case .serveWhileRevalidating(let entry):
            completion(Self.reply(from: entry, now: now).marked(.staleWhileRevalidating, because: reason))
            revalidateInBackground(entry)
        case .unsatisfiable, .network:
            completion(Self.unavailable.marked(.network, because: reason))
        }
    }

    /// Sends a request the cache doesn't answer. An unsafe method's success invalidates its URL and
    /// `Location`; a `HEAD`'s 2xx reply about the stored `GET` reply (its validators) updates that reply's
    /// headers and freshness as a 304 would (RFC 9111 §4.3.5). `head.stored` was read before the send,
    /// off the delegate queue this completion runs on.
    private func sendUncached(
        _ request: URLRequest, head: (lookup: ResponseCache.Lookup, stored: CachedResponse?)? = nil,
        chain: RequestChain, completion: @escaping Completion
    ) -> @Sendable () -> Void {
        let (cache, requestTime) = (cache, clock.date)
        let method = (request.httpMethod ?? "GET").uppercased()
        return chain.proceed(request) { result in
            if let response = result.response as? HTTPURLResponse, let url = request.url {
                let fields = ResponseHeaders(response).fields
                let stale = CacheRules.invalidatedURLs(
                    method: method, statusCode: response.statusCode, requestURL: url,
                    response: HeaderFields(fields))
                // Files go in the background (this is the delegate queue), yet before any later lookup
                // reads the disk: a request the handler makes finds none of them.
                for url in stale { cache.removeResponses(for: url, inBackground: true) }
                if let head, let stored = head.stored, isForItsAccount, result.error == nil,
                    (200..<300).contains(response.statusCode),
                    CacheRules.headReply(HeaderFields(fields), describes: stored)
                {
                    _ = refresh(stored, by: fields, head.lookup, requestTime: requestTime)
                }
            }
            completion(result.marked(.network, because: .notCacheable))
        }
    }

    /// Sends a request whose reply is stored; `stored` may stand in for a failure. With `conditions`
    /// (the validators of `stored`), a 304 about another version (another `ETag`) can't revalidate the
    /// entry (RFC 9111 §4.3.4): it goes, and `request` is sent again without validators.
    private func send(
        _ request: URLRequest, adding conditions: [String: String] = [:], _ lookup: ResponseCache.Lookup,
        stored: CachedResponse?, because reason: CacheReason, chain: RequestChain,
        completion: @escaping Completion
    ) -> @Sendable () -> Void {
        let requestTime = clock.date
        guard let stored, !conditions.isEmpty else {
            return chain.proceed(request) {
                completion(handle($0, lookup, stored: stored, because: reason, requestTime: requestTime))
            }
        }
        var sent = request
        for (name, value) in conditions {
            sent.setValue(value, forHTTPHeaderField: name)
        }
        let again = DeferredCancel()
        let first = chain.proceed(sent) { result in
            guard result.error == nil, let response = result.response as? HTTPURLResponse,
                response.statusCode == 304
            else {
                return completion(
                    handle(result, lookup, stored: stored, because: reason, requestTime: requestTime))
            }
            let fields = ResponseHeaders(response).fields
            if CacheRules.notModified(HeaderFields(fields), matches: stored) {
                let merged = refresh(stored, by: fields, lookup, requestTime: requestTime)
                let reply = Self.reply(from: merged, now: merged.responseTime)
                return completion(reply.marked(.revalidated, because: reason))
            }
            cache.remove(stored.key, inBackground: true)
            again.attach(
                send(request, lookup, stored: nil, because: reason, chain: chain, completion: completion))
        }
        return {
            first()
            again.cancel()
        }
    }

    /// A reply other than a 304 the cache asked for: stored, unless it is a failure or a 304 the caller
    /// asked for; then `stored`, marked stale, when it may stand in for a failure, else the reply. Once
    /// the request is no longer for its account nothing is stored and no stored reply stands in for a
    /// failure: a reply arriving after sign-out must not bring the partition back, nor a failure show the
    /// signed-out user's reply.
    private func handle(
        _ result: TransferResult, _ lookup: ResponseCache.Lookup, stored: CachedResponse?,
        because reason: CacheReason, requestTime: Date
    ) -> TransferResult {
        guard result.error == nil, let response = result.response as? HTTPURLResponse,
            response.statusCode != 304, !Self.isFailure(response.statusCode)
        else {
            let sent = result.marked(.network, because: reason)
            guard let failure = Self.failure(of: result), let stored else { return sent }
            if case .cancelled = failure { return sent }
            return standIn(stored, for: failure, request: lookup.headers) ?? sent
        }
        let headers = result.headers ?? ResponseHeaders(response)
        // Read once: the call delivers them.
        var result = result
        result.headers = headers
        // A followed redirect: another URL's reply, and the redirect's own freshness is unknown. What the
        // target stored may be older than the body just fetched: it goes too.
        if let target = response.url, CacheKey.normalized(target) != CacheKey.normalized(lookup.url) {
            cache.removeResponseInBackground(for: lookup)
            cache.removeResponses(for: target, inBackground: true)
        } else if isForItsAccount {
            cache.store(
                statusCode: response.statusCode, headers: headers.fields, body: result.body,
                for: lookup, requestTime: requestTime, responseTime: clock.date, inBackground: true,
                reportingMemoryOnly: reportMemoryOnly)
        }
        return result.marked(.network, because: reason)
    }

    /// `stored`, marked stale by `failure` (for `reason`), when the policy lets it stand in for the failed
    /// request with `request`'s fields.
    func standIn(
        _ stored: CachedResponse, for failure: NetworkError, request: HeaderFields,
        because reason: CacheReason = .networkFailure
    ) -> TransferResult? {
        let now = clock.date
        guard isForItsAccount, CacheStrategy.fallsBack(on: stored, policy: policy, request: request, now: now)
        else { return nil }
        return Self.reply(from: stored, now: now).marked(.stale(failure), because: reason)
    }

    /// A 5xx but 501, which is storable as an answer.
    private static func isFailure(_ statusCode: Int) -> Bool { statusCode >= 500 && statusCode != 501 }

    /// A bodiless `GET` but a `Range` one, which the cache may answer; with `method` `HEAD`, a bodiless
    /// `HEAD`, whose reply may refresh the stored `GET` reply's headers.
    static func mayAnswer(_ request: URLRequest, method: String = "GET") -> Bool {
        (request.httpMethod ?? "GET").uppercased() == method && request.httpBody == nil
            && request.httpBodyStream == nil
            && (method == "HEAD" || request.value(forHTTPHeaderField: "Range") == nil)
    }

    /// The failure of a request only the cache may answer, when it can't.
    private static var unavailable: TransferResult {
        TransferResult(body: Data(), response: nil, error: URLError(.resourceUnavailable), respondedAt: nil)
    }

    /// What a stored reply may stand in for: a transport error, or a failure status.
    private static func failure(of result: TransferResult) -> NetworkError? {
        if let error = result.error { return NetworkError(transportError: error) }
        guard let response = result.response as? HTTPURLResponse, isFailure(response.statusCode) else {
            return nil
        }
        return .unacceptableStatusCode(
            response.statusCode, body: result.body, headers: ResponseHeaders(response))
    }

    static func reply(from entry: CachedResponse, now: Date) -> TransferResult {
        var headers = entry.headers
        let age = CacheRules.currentAge(of: entry, now: now)
        headers.setField(String(Int(min(age, Double(Int32.max)))), named: "Age")
        let response = HTTPURLResponse(
            url: entry.url, statusCode: entry.statusCode, httpVersion: "HTTP/1.1", headerFields: headers)
        return TransferResult(body: entry.body, response: response, error: nil, respondedAt: nil)
    }

    /// The request as the cache keys it: its fields as the server receives them, with the transport's
    /// `Cookie`, which replaces the request's own as the transport does (``SessionCookies/header(for:)``):
    /// it keys the entry and matches `Vary: Cookie`.
    private func lookup(_ request: URLRequest, url: URL, chain: RequestChain) -> ResponseCache.Lookup {
        let (own, cookie) = (request.allHTTPHeaderFields ?? [:], chain.cookie?.header)
        var fields = own
        if let cookie { fields.setField(cookie, named: "Cookie") }
        return ResponseCache.Lookup(
            url: url, headers: HeaderFields(fields), ownFields: cookie.map { _ in HeaderFields(own) },
            account: account, credentials: credentials)
    }
}

extension NetworkLayer {
    /// Reads the account a request is for (its own, else the first naming authenticator's, else the
    /// layer's) at each call: a sign-out mid-request changes it, and the token no longer matches.
    func cacheAccountReader<Value>(for request: NetworkRequest<Value>) -> @Sendable () -> String? {
        if let account = request.account { return { account } }
        let authenticators = (interceptors + request.interceptors).compactMap {
            $0 as? BearerTokenAuthenticator
        }
        let changing = changing
        // Most layers have none: a closure of the lock alone, whose context is the lock (no allocation).
        guard !authenticators.isEmpty else { return { changing.withLock { $0.account } } }
        return { authenticators.lazy.compactMap(\.account).first ?? changing.withLock { $0.account } }
    }
}
