import Foundation
import NetworkLayer

extension RequestRecord {
    /// Changes attempt `number`, if recorded.
    mutating func changeAttempt(_ number: Int, _ change: (inout Attempt) -> Void) {
        guard let index = attempts.lastIndex(where: { $0.number == number }) else { return }
        change(&attempts[index])
    }

    /// The request's outcome: its status and where the reply came from, or its error.
    mutating func finish(with result: Result<NetworkResponse<Data>, NetworkError>) {
        switch result {
        case .success(let response):
            status = response.statusCode
            error = nil
            (cache, cacheReason) = Self.cache(response.cacheStatus, reason: cacheReason)
        case .failure(let failure):
            error = failure.message
        }
        if let last = attempts.indices.last, attempts[last].end == nil {
            attempts[last].end = end
            if case .failure(let failure) = result { attempts[last].error = failure.message }
        }
    }

    /// The contract's name for a cache status, and the reason shown beside it (an earlier one is kept).
    static func cache(_ status: CacheStatus, reason: String?) -> (String, String?) {
        switch status {
        case .network: return ("network", reason)
        case .hit: return ("hit", reason ?? "fresh")
        case .staleHit: return ("stale", reason ?? "stale, as the request allowed")
        case .staleWhileRevalidating: return ("stale", reason ?? "within stale-while-revalidate")
        case .revalidated: return ("revalidated", reason ?? "304 Not Modified")
        case .stale(let error): return ("offline", reason ?? error.message)
        }
    }
}
