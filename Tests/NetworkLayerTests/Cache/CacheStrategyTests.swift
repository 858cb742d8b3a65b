import Foundation
import XCTest

@testable import NetworkLayer

/// What the cache does for each policy, with and without a stored reply, fresh or stale, with and
/// without validators: a table over the pure decision, no I/O.
final class CacheStrategyTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func entry(_ headers: [String: String]) -> CachedResponse {
        CachedResponse(
            url: URL(string: "https://api.example.com/items")!, statusCode: 200, headers: headers,
            body: Data("body".utf8), requestTime: now.addingTimeInterval(-100),
            responseTime: now.addingTimeInterval(-100), varying: [:], partition: .shared)
    }

    /// What a decision is, in a word, for the table.
    private func outcome(_ strategy: CacheStrategy) -> String {
        switch strategy {
        case .serve: "serve"
        case .serveWhileRevalidating: "serve while revalidating"
        case .unsatisfiable: "unsatisfiable"
        case .network(let conditions, _):
            conditions.isEmpty ? "network" : "validate " + conditions.keys.sorted().joined(separator: ",")
        }
    }

    func testTheDecisionForEachPolicyAndStoredReply() {
        let fresh = entry(["Cache-Control": "max-age=600", "ETag": "\"v1\""])
        let stale = entry(["Cache-Control": "max-age=10", "ETag": "\"v1\""])
        let staleWithoutValidators = entry(["Cache-Control": "max-age=10"])
        let rows: [(CachePolicy, CachedResponse?, [String: String], String)] = [
            (.useProtocolCachePolicy, nil, [:], "network"),
            (.useProtocolCachePolicy, fresh, [:], "serve"),
            (.useProtocolCachePolicy, stale, [:], "validate If-None-Match"),
            (.useProtocolCachePolicy, staleWithoutValidators, [:], "network"),
            // The caller's own conditional request: its 304 is the caller's, not the cache's.
            (.useProtocolCachePolicy, fresh, ["If-None-Match": "\"v0\""], "network"),
            (.useProtocolCachePolicy, stale, ["If-None-Match": "\"v0\""], "network"),
            (.useProtocolCachePolicy, fresh, ["Cache-Control": "no-cache"], "validate If-None-Match"),
            (.useCacheOnFailure, fresh, [:], "serve"),
            (.useCacheOnFailure, stale, [:], "validate If-None-Match"),
            (.reloadIgnoringCache, fresh, [:], "network"),
            (.revalidate, fresh, [:], "validate If-None-Match"),
            (.returnCacheDataElseLoad, stale, [:], "serve"),
            (.returnCacheDataElseLoad, nil, [:], "network"),
            (.returnCacheDataDontLoad, stale, [:], "serve"),
            (.returnCacheDataDontLoad, nil, [:], "unsatisfiable"),
        ]
        for (index, (policy, stored, request, expected)) in rows.enumerated() {
            let strategy = CacheStrategy.decide(
                policy: policy, stored: stored, request: HeaderFields(request), now: now)
            XCTAssertEqual(outcome(strategy), expected, "row \(index): \(policy), \(request)")
        }
    }

    func testWhatAFailureMayFallBackOnIsTheStoredReply() {
        let stale = entry(["Cache-Control": "max-age=10", "Last-Modified": HTTPDate.string(from: now)])
        let strategy = CacheStrategy.decide(
            policy: .useCacheOnFailure, stored: stale, request: HeaderFields([:]), now: now)
        XCTAssertEqual(
            strategy,
            .network(conditions: ["If-Modified-Since": HTTPDate.string(from: now)], stored: stale))
    }

    /// Which stored reply stands in for a failed request, per policy: the stage's fallback (a 5xx, an
    /// error) and the offline fallback of an account's request decide alike.
    func testWhenAStoredReplyStandsInForAFailure() {
        let fresh = entry(["Cache-Control": "max-age=600"])
        let stale = entry(["Cache-Control": "max-age=10"])
        let staleIfError = entry(["Cache-Control": "max-age=10, stale-if-error=600"])
        let mustRevalidate = entry(["Cache-Control": "max-age=10, stale-if-error=600, must-revalidate"])
        let rows: [(CachePolicy, CachedResponse, Bool)] = [
            (.useProtocolCachePolicy, fresh, true),
            (.useProtocolCachePolicy, stale, false),
            (.useProtocolCachePolicy, staleIfError, true),
            (.useProtocolCachePolicy, mustRevalidate, false),
            (.revalidate, fresh, false),
            (.revalidate, staleIfError, true),
            (.useCacheOnFailure, stale, true),
            (.returnCacheDataElseLoad, stale, true),
            (.returnCacheDataDontLoad, stale, true),
            (.reloadIgnoringCache, staleIfError, false),
        ]
        for (index, (policy, stored, expected)) in rows.enumerated() {
            XCTAssertEqual(
                CacheStrategy.fallsBack(on: stored, policy: policy, request: HeaderFields([:]), now: now),
                expected, "row \(index): \(policy)")
        }
    }

    /// Within its `stale-while-revalidate` window a stale reply is served while revalidated, when the
    /// stage can revalidate in the background and nothing asks for a validated reply first.
    func testTheStaleWhileRevalidateWindow() {
        // 100 s old: stale for 90 s.
        let inWindow = entry(["Cache-Control": "max-age=10, stale-while-revalidate=200", "ETag": "\"v1\""])
        let pastWindow = entry(["Cache-Control": "max-age=10, stale-while-revalidate=50", "ETag": "\"v1\""])
        let mustRevalidate = entry([
            "Cache-Control": "max-age=10, stale-while-revalidate=200, must-revalidate", "ETag": "\"v1\"",
        ])
        let rows: [(CachePolicy, CachedResponse, [String: String], Bool, String)] = [
            (.useProtocolCachePolicy, inWindow, [:], true, "serve while revalidating"),
            (.useCacheOnFailure, inWindow, [:], true, "serve while revalidating"),
            (.useProtocolCachePolicy, inWindow, [:], false, "validate If-None-Match"),
            (.useProtocolCachePolicy, pastWindow, [:], true, "validate If-None-Match"),
            (.useProtocolCachePolicy, mustRevalidate, [:], true, "validate If-None-Match"),
            (
                .useProtocolCachePolicy, inWindow, ["Cache-Control": "no-cache"], true,
                "validate If-None-Match"
            ),
            (
                .useProtocolCachePolicy, inWindow, ["Cache-Control": "max-age=30"], true,
                "validate If-None-Match"
            ),
            (.useProtocolCachePolicy, inWindow, ["If-None-Match": "\"v0\""], true, "network"),
            (.revalidate, inWindow, [:], true, "validate If-None-Match"),
            (.returnCacheDataElseLoad, inWindow, [:], true, "serve"),
        ]
        for (index, (policy, stored, request, background, expected)) in rows.enumerated() {
            let strategy = CacheStrategy.decide(
                policy: policy, stored: stored, request: HeaderFields(request), now: now,
                revalidatesInBackground: background)
            XCTAssertEqual(outcome(strategy), expected, "row \(index): \(policy), \(request)")
        }
    }
}
