import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension CacheStage {
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
