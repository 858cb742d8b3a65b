import Foundation
import NetworkLayer

extension RequestRecord {
    /// Changes attempt `number`, if recorded.
    mutating func changeAttempt(_ number: Int, _ change: (inout Attempt) -> Void) {
        guard let index = attempts.lastIndex(where: { $0.number == number }) else { return }
        change(&attempts[index])
    }

    /// What the metrics tell beyond the outcome: sharing and the waits, in milliseconds.
    mutating func take(_ metrics: RequestMetrics) {
        sharedBy = metrics.sharedCallers
        queuedRateLimit = metrics.rateLimitQueuedDuration * 1_000
        // The budget's part is the rest of the queue time: the two make up `queuedDuration`.
        queuedBudget = max(0, metrics.queuedDuration - metrics.rateLimitQueuedDuration) * 1_000
        waitingOnPolicies = metrics.policyWaitDuration * 1_000
    }

    /// The request's outcome: its status and where the reply came from (`off` when no cache looked at
    /// it), or its error.
    mutating func finish(
        with result: Result<NetworkResponse<Data>, NetworkError>, cacheStatus: CacheStatus?,
        cacheReason reason: CacheReason?
    ) {
        var status = cacheStatus
        switch result {
        case .success(let response):
            self.status = response.statusCode
            error = nil
            status = status ?? response.cacheStatus
        case .failure(let failure):
            error = failure.message
        }
        let named = reason?.description ?? cacheReason
        (cache, cacheReason) = status.map { Self.cache($0, reason: named) } ?? ("off", named)
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
