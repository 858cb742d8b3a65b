import Foundation

/// RFC 9111's rules for a private cache, as pure functions of headers and times.
enum CacheRules {
    /// The statuses a cache may store and give heuristic freshness to (RFC 9110 §15.1).
    static let storableStatuses: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// The share of the time since `Last-Modified` a reply without explicit freshness stays fresh.
    static let heuristicFraction = 0.1

    /// Whether a reply to this request may be stored (RFC 9111 §3).
    static func canStore(
        method: String, statusCode: Int, request: HeaderFields, response: HeaderFields
    ) -> Bool {
        guard method.uppercased() == "GET", storableStatuses.contains(statusCode) else { return false }
        // A reply that varies on everything (`Vary: *`) can never be served again.
        return request.cacheControl?.noStore != true && response.cacheControl?.noStore != true
            && !varyNames(response).contains("*")
    }

    static func varyNames(_ response: HeaderFields) -> [String] {
        guard let vary = response["Vary"] else { return [] }
        return vary.split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// The keyed fingerprints of the request headers a reply varies on. An account's partition leaves
    /// credential headers out, so a refreshed token still finds the entry.
    static func varying(
        request: HeaderFields, response: HeaderFields, partition: CachePartition, keying: CacheKeying
    ) -> [String: String] {
        var result: [String: String] = [:]
        for name in varyNames(response)
        where name != "*" && !(partition.isAccount && keying.credentials.contains(name)) {
            result[name] = request[name].map { keying.varyFingerprint(name: name, value: normalized($0)) }
        }
        return result
    }

    /// Whether a stored reply's `Vary` headers match a new request (RFC 9111 §4.1); `Vary: *` never does.
    static func varyMatches(_ entry: CachedResponse, request: HeaderFields, keying: CacheKeying) -> Bool {
        let response = entry.fields
        return !varyNames(response).contains("*")
            && varying(request: request, response: response, partition: entry.partition, keying: keying)
                == entry.varying
    }

    /// Whitespace collapsed, as RFC 9111 §4.1 allows before comparing.
    private static func normalized(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// How long a reply stays fresh (RFC 9111 §4.2.1): `max-age`, else `Expires` minus `Date`, else a
    /// `Last-Modified` heuristic; `s-maxage` is for shared caches.
    static func freshnessLifetime(statusCode: Int, headers: HeaderFields, responseTime: Date)
        -> TimeInterval
    {
        let control = CacheControl(headers["Cache-Control"])
        if let maxAge = control.maxAge { return maxAge }
        let date = HTTPDate.parse(headers["Date"]) ?? responseTime
        if let expires = headers["Expires"] {
            // An invalid Expires (such as "0") means already expired.
            guard let expiry = HTTPDate.parse(expires) else { return 0 }
            return max(0, expiry.timeIntervalSince(date))
        }
        guard storableStatuses.contains(statusCode) || control.isPublic,
            let lastModified = HTTPDate.parse(headers["Last-Modified"])
        else { return 0 }
        return max(0, date.timeIntervalSince(lastModified) * heuristicFraction)
    }

    /// The reply's current age (RFC 9111 §4.2.3).
    static func currentAge(headers: HeaderFields, requestTime: Date, responseTime: Date, now: Date)
        -> TimeInterval
    {
        let dateValue = HTTPDate.parse(headers["Date"]) ?? responseTime
        let ageValue =
            headers["Age"].flatMap { CacheControl.deltaSeconds($0.trimmingCharacters(in: .whitespaces)) } ?? 0
        let apparentAge = max(0, responseTime.timeIntervalSince(dateValue))
        let responseDelay = max(0, responseTime.timeIntervalSince(requestTime))
        let correctedAgeValue = ageValue + responseDelay
        let correctedInitialAge = max(apparentAge, correctedAgeValue)
        let residentTime = max(0, now.timeIntervalSince(responseTime))
        return correctedInitialAge + residentTime
    }

    static func currentAge(of entry: CachedResponse, now: Date) -> TimeInterval {
        currentAge(
            headers: entry.fields, requestTime: entry.requestTime, responseTime: entry.responseTime, now: now)
    }

    /// How much longer the entry stays fresh at `now`; zero or less means stale.
    private static func remainingFreshness(of entry: CachedResponse, now: Date) -> TimeInterval {
        freshnessLifetime(
            statusCode: entry.statusCode, headers: entry.fields, responseTime: entry.responseTime)
            - currentAge(of: entry, now: now)
    }

    /// Whether the entry may be served unasked (RFC 9111 §4.2) by its and the request's `Cache-Control`.
    static func isFresh(_ entry: CachedResponse, request: HeaderFields, now: Date) -> Bool {
        let control = CacheControl(entry.fields["Cache-Control"])
        let requestControl = CacheControl(request["Cache-Control"])
        if control.noCache || asksNoCache(request, requestControl) { return false }
        if let maxAge = requestControl.maxAge, currentAge(of: entry, now: now) > maxAge { return false }
        var remaining = remainingFreshness(of: entry, now: now)
        if let minFresh = requestControl.minFresh { remaining -= minFresh }
        if remaining > 0 { return true }
        // A request may accept a stale reply, unless the reply forbids it.
        if let maxStale = requestControl.maxStale, !control.mustRevalidate { return -remaining <= maxStale }
        return false
    }

    /// Whether a stale entry may be served at once while it is revalidated in the background, by its own
    /// `stale-while-revalidate` (RFC 5861): within the window, unless it must be revalidated first
    /// (`must-revalidate`, `no-cache`) or the request asks for fresher (`no-cache`, `max-age`, `min-fresh`).
    static func canServeWhileRevalidating(_ entry: CachedResponse, request: HeaderFields, now: Date) -> Bool {
        let control = CacheControl(entry.fields["Cache-Control"])
        let requestControl = CacheControl(request["Cache-Control"])
        guard let window = control.staleWhileRevalidate, !control.mustRevalidate, !control.noCache,
            !asksNoCache(request, requestControl), requestControl.maxAge == nil,
            requestControl.minFresh == nil
        else { return false }
        return -remainingFreshness(of: entry, now: now) <= window
    }

    /// Whether a request asks for a reply the server validated: `no-cache`, or HTTP/1.0's `Pragma`, which
    /// counts only without a Cache-Control (RFC 9111 §5.4).
    private static func asksNoCache(_ request: HeaderFields, _ control: CacheControl) -> Bool {
        control.noCache
            || request["Cache-Control"] == nil && request["Pragma"]?.lowercased().contains("no-cache") == true
    }

    /// Whether a stale entry may stand in for a failed request by its own `stale-if-error` (RFC 5861).
    static func canServeStaleOnError(_ entry: CachedResponse, now: Date) -> Bool {
        let control = CacheControl(entry.fields["Cache-Control"])
        guard let window = control.staleIfError, !control.mustRevalidate else { return false }
        return -remainingFreshness(of: entry, now: now) <= window
    }

    /// Whether the entry has outlived its freshness lifetime, whatever the request accepts.
    static func isStale(_ entry: CachedResponse, now: Date) -> Bool {
        remainingFreshness(of: entry, now: now) <= 0
    }

    /// The headers that make a request conditional on the stored reply (RFC 9111 §4.3.1): `Last-Modified`
    /// goes back as received, a date or not; the server compares it.
    static func conditionalHeaders(for entry: CachedResponse) -> [String: String] {
        let headers = entry.fields
        return ["If-None-Match": headers["ETag"], "If-Modified-Since": headers["Last-Modified"]]
            .compactMapValues { $0 }
    }

    /// Whether a request's headers already make it conditional: then its caller wants to see a 304.
    static func isConditional(_ request: HeaderFields) -> Bool {
        ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range"].contains {
            request[$0] != nil
        }
    }

    /// Header fields a 304 must not replace in the stored reply: they describe the stored body.
    private static let bodyFields: Set<String> = [
        "content-length", "content-encoding", "transfer-encoding", "content-range", "connection",
        "keep-alive",
    ]

    /// A reply's fields without `Set-Cookie`: the session already stored the cookie, and kept it would go
    /// to disk in clear and be set again by every hit.
    static func storedHeaders(_ headers: [String: String]) -> [String: String] {
        // Most replies set none: they are stored as they came, without a copy.
        let fields = HeaderFields(headers)
        guard fields["Set-Cookie"] != nil || fields["Set-Cookie2"] != nil else { return headers }
        // `lowercased()`, not an ASCII compare: it folds as the Linux session's cookie reading does (the
        // Kelvin sign to `k`), so no name that sets a cookie there is stored.
        return headers.filter { !["set-cookie", "set-cookie2"].contains($0.key.lowercased()) }
    }

    /// The entry updated by a 304 (RFC 9111 §4.3.4): its fields replace the stored ones but those that
    /// describe the body; the age starts over (a 304 without `Date` is dated `responseTime`); a new `Vary`
    /// matches against `request`, the one the 304 answered.
    static func merging(
        notModified headers: [String: String], into entry: CachedResponse, request: HeaderFields,
        requestTime: Date, responseTime: Date, keying: CacheKeying
    ) -> CachedResponse {
        var updated = entry
        var replacing = storedHeaders(headers)
        let fields = HeaderFields(replacing)
        if fields["Date"] == nil { replacing["Date"] = HTTPDate.string(from: responseTime) }
        if fields["Age"] == nil { updated.headers.setField(nil, named: "Age") }
        for (name, value) in replacing where !bodyFields.contains(name.lowercased()) {
            updated.headers.setField(value, named: name)
        }
        if fields["Vary"] != nil {
            updated.varying = varying(
                request: request, response: HeaderFields(updated.headers), partition: entry.partition,
                keying: keying)
        }
        updated.requestTime = requestTime
        updated.responseTime = responseTime
        return updated
    }

    /// Whether a 304 is about this stored reply: same strong or weak `ETag` when both have one.
    static func notModified(_ headers: HeaderFields, matches entry: CachedResponse) -> Bool {
        guard let new = headers["ETag"], let old = entry.fields["ETag"] else { return true }
        return weak(new) == weak(old)
    }

    /// Whether a `HEAD` reply describes this stored `GET` reply (RFC 9111 §4.3.5, selecting as §4.3.4
    /// does): the same `ETag`, or without one on either side the same `Last-Modified`. No validator, no
    /// update.
    static func headReply(_ headers: HeaderFields, describes entry: CachedResponse) -> Bool {
        let stored = entry.fields
        if let new = headers["ETag"] {
            return stored["ETag"].map { weak($0) == weak(new) } ?? false
        }
        guard stored["ETag"] == nil, let modified = headers["Last-Modified"] else { return false }
        return stored["Last-Modified"] == modified
    }

    private static func weak(_ tag: String) -> String {
        let trimmed = tag.trimmingCharacters(in: .whitespaces)
        return trimmed.hasPrefix("W/") ? String(trimmed.dropFirst(2)) : trimmed
    }

    static let safeMethods: Set<String> = ["GET", "HEAD", "OPTIONS", "TRACE"]

    /// The URLs a successful reply to an unsafe method invalidates (RFC 9111 §4.4): the request's, and
    /// same-origin `Location` and `Content-Location`.
    static func invalidatedURLs(
        method: String, statusCode: Int, requestURL: URL, response: HeaderFields
    ) -> [URL] {
        guard !safeMethods.contains(method.uppercased()), (200..<400).contains(statusCode) else { return [] }
        let related = ["Location", "Content-Location"].compactMap { name in
            response[name].flatMap { URL(string: $0, relativeTo: requestURL)?.absoluteURL }
        }
        return [requestURL] + related.filter { sameOrigin($0, requestURL) }
    }

    static func sameOrigin(_ lhs: URL, _ rhs: URL) -> Bool {
        Origin(lhs).map { $0.contains(rhs) } ?? false
    }
}
