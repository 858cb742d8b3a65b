import Foundation
import XCTest

@testable import NetworkLayer

/// RFC 9111's rules as pure functions: what is stored, for how long, how it's revalidated and invalidated.
final class CacheRulesTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT
    private let url = URL(string: "https://api.example.com/items?page=1")!
    private let keying = CacheKeying(appKey: nil)

    private func date(_ offset: TimeInterval) -> String {
        HTTPDate.string(from: now.addingTimeInterval(offset))
    }

    private func entry(
        status: Int = 200, _ headers: [String: String], requestTime: Date? = nil, responseTime: Date? = nil,
        varying: [String: String] = [:]
    ) -> CachedResponse {
        CachedResponse(
            url: url, statusCode: status, headers: headers, body: Data("body".utf8),
            requestTime: requestTime ?? now, responseTime: responseTime ?? now, varying: varying,
            partition: .shared)
    }

    // MARK: - What is stored

    func testStorableStatusesToGET() {
        for status in 100..<600 {
            let stored = CacheRules.canStore(method: "GET", statusCode: status, request: [:], response: [:])
            XCTAssertEqual(stored, CacheRules.storableStatuses.contains(status), "status \(status)")
        }
        XCTAssertEqual(CacheRules.storableStatuses, [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501])
    }

    func testOnlyGETIsStored() {
        for method in ["POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] {
            XCTAssertFalse(CacheRules.canStore(method: method, statusCode: 200, request: [:], response: [:]))
        }
        XCTAssertTrue(CacheRules.canStore(method: "get", statusCode: 200, request: [:], response: [:]))
    }

    func testNoStoreInRequestOrResponseIsNotStored() {
        XCTAssertFalse(
            CacheRules.canStore(
                method: "GET", statusCode: 200, request: [:],
                response: ["Cache-Control": "max-age=60, no-store"]))
        XCTAssertFalse(
            CacheRules.canStore(
                method: "GET", statusCode: 200, request: ["cache-control": "no-store"], response: [:]))
    }

    func testPrivateAndPublicAreStoredByAPrivateCache() {
        for value in ["private", "public", "private, max-age=10", "no-cache", "must-revalidate", "immutable"]
        {
            XCTAssertTrue(
                CacheRules.canStore(
                    method: "GET", statusCode: 200, request: [:], response: ["Cache-Control": value]),
                value)
        }
    }

    func testVaryStarIsNotStored() {
        XCTAssertFalse(
            CacheRules.canStore(method: "GET", statusCode: 200, request: [:], response: ["Vary": "Accept, *"])
        )
    }

    // MARK: - Cache-Control

    func testCacheControlDirectives() {
        let control = CacheControl(
            "Max-Age=60, s-maxage=600, no-cache, must-revalidate, private, public, immutable, "
                + "stale-while-revalidate=30, stale-if-error=\"90\", unknown=1")
        XCTAssertEqual(control.maxAge, 60)
        XCTAssertTrue(control.noCache)
        XCTAssertTrue(control.mustRevalidate)
        XCTAssertTrue(control.isPrivate)
        XCTAssertTrue(control.isPublic)
        XCTAssertTrue(control.immutable)
        XCTAssertEqual(control.staleWhileRevalidate, 30)
        XCTAssertEqual(control.staleIfError, 90)
        XCTAssertFalse(control.noStore)
        XCTAssertEqual(CacheControl("no-store").noStore, true)
        XCTAssertEqual(CacheControl(nil), CacheControl())
    }

    func testInvalidMaxAgeIsStale() {
        XCTAssertEqual(CacheControl("max-age=-1").maxAge, 0)
        XCTAssertEqual(CacheControl("max-age=abc").maxAge, 0)
        XCTAssertEqual(CacheControl("max-age=60, max-age=10").maxAge, 10)
    }

    func testQuotedCommaDoesNotSplit() {
        let control = CacheControl("no-cache=\"Set-Cookie, X-A\", max-age=5")
        XCTAssertEqual(control.maxAge, 5)
        XCTAssertTrue(control.noCache)
    }

    func testSMaxAgeIsIgnored() {
        let lifetime = CacheRules.freshnessLifetime(
            statusCode: 200, headers: ["Cache-Control": "s-maxage=600"], responseTime: now)
        XCTAssertEqual(lifetime, 0)
    }

    // MARK: - Freshness lifetime

    func testMaxAgeWinsOverExpires() {
        let headers: HeaderFields = [
            "Cache-Control": "max-age=60", "Expires": date(3600), "Date": date(0),
        ]
        XCTAssertEqual(CacheRules.freshnessLifetime(statusCode: 200, headers: headers, responseTime: now), 60)
    }

    func testExpiresMinusDate() {
        let headers: HeaderFields = ["Expires": date(100), "Date": date(-20)]
        XCTAssertEqual(
            CacheRules.freshnessLifetime(statusCode: 200, headers: headers, responseTime: now), 120)
    }

    func testExpiresWithoutDateUsesResponseTime() {
        let headers: HeaderFields = ["Expires": date(100)]
        XCTAssertEqual(
            CacheRules.freshnessLifetime(statusCode: 200, headers: headers, responseTime: now), 100)
    }

    func testInvalidExpiresIsExpired() {
        let headers: HeaderFields = ["Expires": "0", "Last-Modified": date(-10_000)]
        XCTAssertEqual(CacheRules.freshnessLifetime(statusCode: 200, headers: headers, responseTime: now), 0)
    }

    func testHeuristicIsTenPercentOfTimeSinceLastModified() {
        let headers: HeaderFields = ["Date": date(0), "Last-Modified": date(-1000)]
        XCTAssertEqual(
            CacheRules.freshnessLifetime(statusCode: 200, headers: headers, responseTime: now), 100)
        XCTAssertEqual(
            CacheRules.freshnessLifetime(statusCode: 404, headers: headers, responseTime: now), 100)
    }

    func testNoHeuristicForOtherStatusesUnlessPublic() {
        let headers: HeaderFields = ["Date": date(0), "Last-Modified": date(-1000)]
        XCTAssertEqual(CacheRules.freshnessLifetime(statusCode: 302, headers: headers, responseTime: now), 0)
        let publicHeaders: HeaderFields = [
            "Date": date(0), "Last-Modified": date(-1000), "Cache-Control": "public",
        ]
        XCTAssertEqual(
            CacheRules.freshnessLifetime(statusCode: 302, headers: publicHeaders, responseTime: now), 100)
    }

    func testNoFreshnessWithoutAnyHeader() {
        XCTAssertEqual(CacheRules.freshnessLifetime(statusCode: 200, headers: [:], responseTime: now), 0)
    }

    func testHTTPDateForms() {
        let expected = Date(timeIntervalSince1970: 784_111_777)
        XCTAssertEqual(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"), expected)
        XCTAssertEqual(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT"), expected)
        XCTAssertEqual(HTTPDate.parse("Sun Nov  6 08:49:37 1994"), expected)
        XCTAssertNil(HTTPDate.parse("yesterday"))
        XCTAssertEqual(
            HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT"), Date(timeIntervalSince1970: 1_709_164_800))
        // Days a month doesn't have, and day names that don't exist, are no dates in either reader.
        XCTAssertNil(HTTPDate.parse("Sat, 31 Feb 2024 07:28:00 GMT"))
        XCTAssertNil(HTTPDate.parse("Thu, 29 Feb 2023 07:28:00 GMT"))
        XCTAssertNil(HTTPDate.parse("Sun, 31 Nov 1994 08:49:37 GMT"))
        XCTAssertNil(HTTPDate.parse("Xyz, 21 Oct 2015 07:28:00 GMT"))
        XCTAssertEqual(HTTPDate.string(from: expected), "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    // MARK: - Age

    func testAgeCalculation() {
        // Sent at -2, received at 0, generated at -5 by the server's clock, Age: 10 from an upstream cache.
        let headers: HeaderFields = ["Date": date(-5), "Age": "10"]
        let age = CacheRules.currentAge(
            headers: headers, requestTime: now.addingTimeInterval(-2), responseTime: now,
            now: now.addingTimeInterval(30))
        // corrected_age_value = 10 + 2 = 12 > apparent_age 5; plus 30 resident.
        XCTAssertEqual(age, 42)
    }

    func testApparentAgeWinsWhenLarger() {
        let headers: HeaderFields = ["Date": date(-50), "Age": "3"]
        let age = CacheRules.currentAge(headers: headers, requestTime: now, responseTime: now, now: now)
        XCTAssertEqual(age, 50)
    }

    func testDateInTheFutureIsNoNegativeAge() {
        let headers: HeaderFields = ["Date": date(500)]
        XCTAssertEqual(
            CacheRules.currentAge(headers: headers, requestTime: now, responseTime: now, now: now), 0)
    }

    func testInvalidAgeIsIgnored() {
        let headers: HeaderFields = ["Age": "-3"]
        XCTAssertEqual(
            CacheRules.currentAge(headers: headers, requestTime: now, responseTime: now, now: now), 0)
    }

    func testFreshUntilMaxAgeThenStale() {
        let stored = entry(["Cache-Control": "max-age=60", "Date": date(0)])
        XCTAssertTrue(CacheRules.isFresh(stored, request: [:], now: now.addingTimeInterval(59)))
        XCTAssertFalse(CacheRules.isFresh(stored, request: [:], now: now.addingTimeInterval(60)))
    }

    func testAgeHeaderShortensFreshness() {
        let stored = entry(["Cache-Control": "max-age=60", "Age": "50"])
        XCTAssertTrue(CacheRules.isFresh(stored, request: [:], now: now.addingTimeInterval(9)))
        XCTAssertFalse(CacheRules.isFresh(stored, request: [:], now: now.addingTimeInterval(11)))
    }

    func testNoCacheIsNeverFresh() {
        XCTAssertFalse(
            CacheRules.isFresh(entry(["Cache-Control": "max-age=60, no-cache"]), request: [:], now: now))
        let stored = entry(["Cache-Control": "max-age=60"])
        XCTAssertFalse(CacheRules.isFresh(stored, request: ["Cache-Control": "no-cache"], now: now))
        XCTAssertFalse(CacheRules.isFresh(stored, request: ["Pragma": "no-cache"], now: now))
        XCTAssertFalse(
            CacheRules.isFresh(
                stored, request: ["Cache-Control": "max-age=0"], now: now.addingTimeInterval(1)))
        XCTAssertFalse(CacheRules.isFresh(stored, request: ["Cache-Control": "min-fresh=61"], now: now))
        XCTAssertTrue(
            CacheRules.isFresh(
                stored, request: ["Cache-Control": "max-stale=10"], now: now.addingTimeInterval(65)))
    }

    func testMustRevalidateRefusesMaxStale() {
        let stored = entry(["Cache-Control": "max-age=60, must-revalidate"])
        XCTAssertFalse(
            CacheRules.isFresh(
                stored, request: ["Cache-Control": "max-stale"], now: now.addingTimeInterval(65)))
    }

    func testStaleIfErrorWindow() {
        let stored = entry(["Cache-Control": "max-age=10, stale-if-error=60"])
        XCTAssertTrue(CacheRules.canServeStaleOnError(stored, now: now.addingTimeInterval(69)))
        XCTAssertFalse(CacheRules.canServeStaleOnError(stored, now: now.addingTimeInterval(71)))
        XCTAssertFalse(
            CacheRules.canServeStaleOnError(
                entry(["Cache-Control": "max-age=10"]), now: now.addingTimeInterval(11)))
        XCTAssertFalse(
            CacheRules.canServeStaleOnError(
                entry(["Cache-Control": "max-age=10, stale-if-error=60, must-revalidate"]),
                now: now.addingTimeInterval(11)))
    }

    // MARK: - Validation

    func testConditionalHeadersFromEachValidator() {
        XCTAssertEqual(
            CacheRules.conditionalHeaders(for: entry(["ETag": "\"v1\""])), ["If-None-Match": "\"v1\""])
        XCTAssertEqual(
            CacheRules.conditionalHeaders(for: entry(["Last-Modified": date(-100)])),
            ["If-Modified-Since": date(-100)])
        XCTAssertEqual(
            CacheRules.conditionalHeaders(for: entry(["etag": "W/\"v1\"", "last-modified": date(-1)])),
            ["If-None-Match": "W/\"v1\"", "If-Modified-Since": date(-1)])
        // RFC 9111 §4.3.1: as received, even when it is no date.
        XCTAssertEqual(
            CacheRules.conditionalHeaders(for: entry(["Last-Modified": "garbage"])),
            ["If-Modified-Since": "garbage"])
        XCTAssertEqual(CacheRules.conditionalHeaders(for: entry([:])), [:])
    }

    func testCallerConditionalRequestIsRecognised() {
        XCTAssertTrue(CacheRules.isConditional(["if-none-match": "\"a\""]))
        XCTAssertTrue(CacheRules.isConditional(["If-Modified-Since": date(0)]))
        XCTAssertFalse(CacheRules.isConditional(["Accept": "*/*"]))
    }

    func testMergingA304() {
        let stored = entry(
            ["ETag": "\"v1\"", "Cache-Control": "max-age=10", "Content-Length": "4", "X-Old": "kept"],
            requestTime: now.addingTimeInterval(-100), responseTime: now.addingTimeInterval(-99))
        let merged = CacheRules.merging(
            notModified: ["cache-control": "max-age=60", "Content-Length": "0", "X-New": "1"], into: stored,
            request: [:], requestTime: now.addingTimeInterval(-1), responseTime: now, keying: keying)
        XCTAssertEqual(merged.fields["Cache-Control"], "max-age=60")
        XCTAssertEqual(merged.headers.keys.filter { $0.lowercased() == "cache-control" }.count, 1)
        XCTAssertEqual(merged.fields["Content-Length"], "4")
        XCTAssertEqual(merged.fields["X-Old"], "kept")
        XCTAssertEqual(merged.fields["X-New"], "1")
        XCTAssertEqual(merged.body, stored.body)
        XCTAssertEqual(merged.statusCode, 200)
        XCTAssertEqual(merged.responseTime, now)
        XCTAssertTrue(CacheRules.isFresh(merged, request: [:], now: now.addingTimeInterval(30)))
    }

    /// A 304 starts the entry's age over: without its own `Date` or `Age`, the old reply's would make a
    /// just-revalidated entry stale at once. A new `Vary` is matched against the request it answered.
    func testA304StartsTheAgeOverAndMatchesANewVary() {
        let hourAgo = now.addingTimeInterval(-3600)
        let stored = entry(
            [
                "Cache-Control": "max-age=60", "ETag": "\"v1\"", "Date": HTTPDate.string(from: hourAgo),
                "Age": "30",
            ],
            requestTime: hourAgo, responseTime: hourAgo)
        let merged = CacheRules.merging(
            notModified: ["ETag": "\"v1\"", "Vary": "Accept-Language", "Set-Cookie": "s=1"], into: stored,
            request: ["Accept-Language": "en"], requestTime: now, responseTime: now, keying: keying)
        XCTAssertTrue(CacheRules.isFresh(merged, request: [:], now: now.addingTimeInterval(1)))
        XCTAssertNil(merged.fields["Age"])
        XCTAssertNil(merged.fields["Set-Cookie"], "a 304's cookie is not kept")
        XCTAssertTrue(CacheRules.varyMatches(merged, request: ["Accept-Language": "en"], keying: keying))
        XCTAssertFalse(CacheRules.varyMatches(merged, request: ["Accept-Language": "fr"], keying: keying))
    }

    func testA304ForAnotherETagDoesNotMatch() {
        let stored = entry(["ETag": "\"v1\""])
        XCTAssertTrue(CacheRules.notModified(["ETag": "W/\"v1\""], matches: stored))
        XCTAssertFalse(CacheRules.notModified(["ETag": "\"v2\""], matches: stored))
        XCTAssertTrue(CacheRules.notModified([:], matches: stored))
    }

    // MARK: - Vary

    func testVaryMatching() {
        let response: HeaderFields = ["Vary": "Accept-Language, accept"]
        let request: HeaderFields = ["Accept-Language": "en", "Accept": "application/json"]
        let stored = entry(
            ["Vary": "Accept-Language, accept"],
            varying: CacheRules.varying(
                request: request, response: response, partition: .shared, keying: keying))
        XCTAssertFalse(stored.varying.values.contains("en"), "fingerprints, not values")
        XCTAssertTrue(
            CacheRules.varyMatches(
                stored, request: ["accept-language": "en", "ACCEPT": "application/json"], keying: keying))
        XCTAssertTrue(
            CacheRules.varyMatches(
                stored, request: ["accept-language": "en", "ACCEPT": "application/json "], keying: keying))
        XCTAssertFalse(
            CacheRules.varyMatches(
                stored, request: ["Accept-Language": "fr", "Accept": "application/json"], keying: keying))
        XCTAssertFalse(
            CacheRules.varyMatches(stored, request: ["Accept": "application/json"], keying: keying))
        XCTAssertTrue(CacheRules.varyMatches(entry([:]), request: ["Accept": "x"], keying: keying))
    }

    func testAbsentVaryingHeaderMatchesAbsent() {
        let stored = entry(["Vary": "X-Tenant"])
        XCTAssertTrue(CacheRules.varyMatches(stored, request: [:], keying: keying))
        XCTAssertFalse(CacheRules.varyMatches(stored, request: ["X-Tenant": "a"], keying: keying))
    }

    func testVaryStarNeverMatches() {
        XCTAssertFalse(CacheRules.varyMatches(entry(["Vary": "*"]), request: [:], keying: keying))
    }

    // MARK: - Credentials

    func testCredentialFingerprints() {
        XCTAssertEqual(keying.partition(account: nil, request: [:]), .shared)
        let alice = keying.partition(account: nil, request: ["Authorization": "Bearer alice"])
        XCTAssertNotEqual(alice, .shared)
        XCTAssertNotEqual(alice, keying.partition(account: nil, request: ["authorization": "Bearer bob"]))
        XCTAssertEqual(alice, keying.partition(account: nil, request: ["authorization": "Bearer alice"]))
        XCTAssertNotEqual(
            keying.partition(account: nil, request: ["Cookie": "a=1"]),
            keying.partition(account: nil, request: ["Cookie": "a=2"]))
        XCTAssertFalse(alice.tag.contains("alice"))
        XCTAssertNotEqual(
            alice,
            CacheKeying(appKey: nil).partition(account: nil, request: ["Authorization": "Bearer alice"]),
            "keyed with each cache's own secret")
        let account = keying.partition(account: "alice", request: ["Authorization": "Bearer alice"])
        XCTAssertEqual(account, keying.partition(account: "alice", request: ["Authorization": "Bearer new"]))
        XCTAssertEqual(account, CacheKeying(appKey: nil).partition(account: "alice", request: [:]))
        XCTAssertNotEqual(
            account, CacheKeying(appKey: Data("k".utf8)).partition(account: "alice", request: [:]))
    }

    /// In an account's partition the account stands for the credentials: a `Vary: Authorization` entry
    /// is found again after the token changes.
    func testAnAccountsEntryDoesNotVaryOnCredentials() {
        let response: HeaderFields = ["Vary": "Authorization, Accept"]
        let partition = keying.partition(account: "alice", request: [:])
        var stored = entry(
            ["Vary": "Authorization, Accept"],
            varying: CacheRules.varying(
                request: ["Authorization": "Bearer old", "Accept": "a"], response: response,
                partition: partition, keying: keying))
        stored.partition = partition
        XCTAssertEqual(Array(stored.varying.keys), ["accept"])
        XCTAssertTrue(
            CacheRules.varyMatches(
                stored, request: ["Authorization": "Bearer new", "Accept": "a"], keying: keying))
        XCTAssertFalse(CacheRules.varyMatches(stored, request: ["Accept": "b"], keying: keying))
    }

    // MARK: - Invalidation

    func testUnsafeMethodsInvalidateURLAndSameOriginLocations() {
        let urls = CacheRules.invalidatedURLs(
            method: "POST", statusCode: 201, requestURL: url,
            response: ["Location": "/items/7", "Content-Location": "https://other.example.com/items/7"])
        XCTAssertEqual(urls.map(\.absoluteString), [url.absoluteString, "https://api.example.com/items/7"])
        for method in ["PUT", "PATCH", "DELETE"] {
            XCTAssertEqual(
                CacheRules.invalidatedURLs(method: method, statusCode: 204, requestURL: url, response: [:]),
                [url])
        }
    }

    func testSafeMethodsAndFailuresInvalidateNothing() {
        for method in ["GET", "HEAD", "OPTIONS", "TRACE"] {
            XCTAssertEqual(
                CacheRules.invalidatedURLs(method: method, statusCode: 200, requestURL: url, response: [:]),
                [])
        }
        XCTAssertEqual(
            CacheRules.invalidatedURLs(method: "POST", statusCode: 500, requestURL: url, response: [:]), [])
        XCTAssertEqual(
            CacheRules.invalidatedURLs(method: "POST", statusCode: 404, requestURL: url, response: [:]), [])
    }

    func testSameOrigin() {
        XCTAssertTrue(
            CacheRules.sameOrigin(URL(string: "https://a.com:443/x")!, URL(string: "HTTPS://A.com/y")!))
        XCTAssertFalse(CacheRules.sameOrigin(URL(string: "http://a.com/x")!, URL(string: "https://a.com/x")!))
        XCTAssertFalse(
            CacheRules.sameOrigin(URL(string: "https://a.com:8443/x")!, URL(string: "https://a.com/x")!))
    }

    // MARK: - Status

    func testCacheStatusEquality() {
        XCTAssertEqual(CacheStatus.stale(.timedOut), .stale(.cancelled))
        XCTAssertNotEqual(CacheStatus.hit, .revalidated)
        XCTAssertFalse(CacheStatus.network.isFromCache)
        XCTAssertTrue(CacheStatus.stale(.timedOut).isFromCache)
        XCTAssertNil(CacheStatus.hit.staleError)
    }

    /// The cache and sharing key a URL without its fragment: all after the first `#`, an empty one too; an
    /// escaped `%23` in the path or query is no fragment.
    func testTheKeyDropsOnlyTheFragment() {
        for (written, key) in [
            ("https://a.example/items?page=1", "https://a.example/items?page=1"),
            ("https://a.example/items?page=1#top", "https://a.example/items?page=1"),
            ("https://a.example/items#", "https://a.example/items"),
            ("https://a.example/it%23ems?q=%23#x#y", "https://a.example/it%23ems?q=%23"),
        ] {
            XCTAssertEqual(CacheKey.normalized(URL(string: written)!), key, written)
        }
    }
}

/// The fast IMF-fixdate reader agrees with DateFormatter.
final class HTTPDateTests: XCTestCase {
    func testFixdateAgreesWithTheFormatter() {
        var seconds: TimeInterval = -2_000_000_000
        while seconds < 4_000_000_000 {
            let date = Date(timeIntervalSince1970: seconds)
            XCTAssertEqual(HTTPDate.fixdate(HTTPDate.string(from: date)), date, HTTPDate.string(from: date))
            seconds += 7_654_321
        }
    }

    func testMalformedFixdatesAreRejected() {
        for text in [
            "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT",
            "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 0x Nov 1994 08:49:37 GMT",
        ] {
            XCTAssertNil(HTTPDate.fixdate(text), text)
        }
    }
}
