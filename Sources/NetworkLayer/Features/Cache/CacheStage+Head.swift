import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension CacheStage {
    /// A bodiless `HEAD`: its reply may refresh the stored `GET` reply's headers.
    static func updatesStoredReply(_ request: URLRequest) -> Bool {
        (request.httpMethod ?? "GET").uppercased() == "HEAD" && request.httpBody == nil
            && request.httpBodyStream == nil
    }

    /// Sends a `HEAD`; a 2xx reply about the stored `GET` reply (its validators) updates that reply's
    /// headers and freshness as a 304 would (RFC 9111 §4.3.5). `stored` was read before the send, off the
    /// delegate queue this completion runs on.
    func sendHead(
        _ request: URLRequest, _ lookup: ResponseCache.Lookup, stored: CachedResponse?, chain: RequestChain,
        completion: @escaping Completion
    ) -> @Sendable () -> Void {
        let requestTime = clock.date
        return chain.proceed(request) { result in
            if let stored, isForItsAccount, result.error == nil,
                let response = result.response as? HTTPURLResponse, (200..<300).contains(response.statusCode)
            {
                let fields = ResponseHeaders(response).fields
                if CacheRules.headReply(HeaderFields(fields), describes: stored) {
                    _ = refresh(stored, by: fields, lookup, requestTime: requestTime)
                }
            }
            completion(result.marked(.network, because: .notCacheable))
        }
    }

    /// `stored` updated by a reply about it received now, a 304 or a `HEAD`'s, and stored while the
    /// request is for its account; removed instead when the reply says it must no longer be kept
    /// (`no-store`, `Vary: *`).
    func refresh(
        _ stored: CachedResponse, by fields: [String: String], _ lookup: ResponseCache.Lookup,
        requestTime: Date
    ) -> CachedResponse {
        let merged = CacheRules.merging(
            notModified: fields, into: stored, request: lookup.headers, requestTime: requestTime,
            responseTime: clock.date, keying: cache.keying.scoped(to: credentials))
        if !CacheRules.canStore(
            method: "GET", statusCode: merged.statusCode, request: lookup.headers, response: merged.fields)
        {
            cache.remove(merged.key, inBackground: true)
        } else if isForItsAccount {
            cache.store(merged, credentials: credentials, inBackground: true)
        }
        return merged
    }
}
