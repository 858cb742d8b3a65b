import Foundation
import NetworkLayer

extension DummyNetworkLayer {
    /// Scripts both phases of `sendCacheThenNetwork` for `method` requests to `urlString`: the stored
    /// phase (any request only the cache may answer, `.returnCacheDataDontLoad`) gets `stored` with
    /// `cacheStatus`, or fails with `.notCached` when `stored` is `nil`; the network phase, and any other
    /// request, gets `network`. URL matching is that of ``stub(_:_:returning:)``.
    ///
    /// ```swift
    /// network.stub(.get, "todos", stored: savedTodos, then: .success(freshTodos))
    /// network.stub(.get, "todos", stored: savedTodos, then: .cached(savedTodos, cacheStatus: .revalidated))
    /// network.stub(.get, "todos", stored: savedTodos, then: .failure(.timedOut))
    /// ```
    ///
    /// The second line is a server that answered 304: the same value again, `.revalidated`. The stored
    /// phase gets the same answer each time, so a second load (a pull to refresh) sees it again. A stub
    /// made otherwise answers both phases alike.
    ///
    /// - Parameters:
    ///   - method: The HTTP method of the requests to answer.
    ///   - urlString: The requests' URL, matched as by ``stub(_:_:returning:)``.
    ///   - stored: What the cache holds, as for ``stub(_:_:returning:)``; `nil` for nothing.
    ///   - cacheStatus: The stored reply's status: `.hit`, or the status of a stale one.
    ///   - network: The network phase's answer.
    public func stub(
        _ method: HTTPMethod, _ urlString: String, stored: Any?, cacheStatus: CacheStatus = .hit,
        then network: DummyOutcome
    ) {
        let storedOutcome = stored.map { DummyOutcome.cached($0, cacheStatus: cacheStatus) }
        stub(
            method, DummyURLPattern(urlString, resolver: builder.resolver), outcomes: [network],
            stored: storedOutcome ?? .failure(.notCached))
    }
}
