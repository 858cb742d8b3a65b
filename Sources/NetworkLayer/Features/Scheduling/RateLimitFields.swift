import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How long a reply asks every client of its origin to send nothing: `Retry-After` on a 429 or 503, or
/// rate-limit fields saying no request remains: the IETF draft's `RateLimit` (`"default";r=0;t=10`, and the
/// older `remaining=0, reset=10`), its earlier `RateLimit-Remaining` with `RateLimit-Reset`, and the
/// common `X-RateLimit-Remaining` with `X-RateLimit-Reset` (seconds, or a Unix time in seconds as GitHub
/// sends it or in milliseconds: see ``resetPause(_:now:)``). The layer's ceiling applies in the scheduler.
enum RateLimitFields {
    /// Seconds `response` asks to wait from `now`, or `nil` (also when it isn't an HTTP reply).
    static func pause(of response: URLResponse?, now: @autoclosure () -> Date) -> TimeInterval? {
        guard let response = response as? HTTPURLResponse else { return nil }
        return pause(statusCode: response.statusCode, field: response.value(forHTTPHeaderField:), now: now())
    }

    /// Seconds to wait from `now`, or `nil`; `field` looks a header field up by name, without case. Nothing
    /// is copied, and `now` is read only when a field asks for a pause.
    static func pause(
        statusCode: Int, field: (String) -> String?, now: @autoclosure () -> Date
    ) -> TimeInterval? {
        var pauses: [TimeInterval] = []
        if statusCode == 429 || statusCode == 503, let value = field("Retry-After"),
            let retryAfter = RetryPolicy.retryAfter(in: ["Retry-After": value], now: now())
        {
            pauses.append(retryAfter)
        }
        if let value = field("RateLimit") { pauses += structuredPauses(value) }
        for prefix in ["RateLimit-", "X-RateLimit-"] {
            guard let remaining = field(prefix + "Remaining").flatMap(number), remaining <= 0,
                let reset = field(prefix + "Reset").flatMap(number)
            else { continue }
            pauses.append(resetPause(reset, now: now()))
        }
        // At most a year, whatever the layer's ceiling: the clock's arithmetic has limits.
        return pauses.filter { $0.isFinite && $0 > 0 }.max().map { min($0, 365 * 86_400) }
    }

    /// The wait a `RateLimit-Reset` or `X-RateLimit-Reset` value asks for, read by its size, as only one
    /// reading is plausible for each:
    /// - up to 1e9 (as a Unix time, before September 2001): seconds from now;
    /// - above that and below 1e11 (as a Unix time in seconds, before the year 5138): a Unix time in
    ///   seconds, as GitHub sends;
    /// - from 1e11: a Unix time in milliseconds, as some APIs send (in seconds it would be past the year
    ///   5138; in milliseconds it is after March 1973).
    ///
    /// A wait in milliseconds (`60000` for a minute) can't be told from one in seconds (a daily quota's
    /// reset is up to 86,400 s): it is read as seconds, and the layer's ceiling
    /// (``RequestScheduling/maximumRateLimitWait``) bounds it. Reading it as milliseconds would let a
    /// client hammer a server whose quota resets at midnight.
    static func resetPause(_ reset: Double, now: Date) -> TimeInterval {
        switch reset {
        case ...1e9: reset
        case ..<1e11: reset - now.timeIntervalSince1970
        default: reset / 1_000 - now.timeIntervalSince1970
        }
    }

    /// The pauses of a `RateLimit` field's members that have nothing remaining.
    private static func structuredPauses(_ field: String) -> [TimeInterval] {
        // The older syntax is one member whose parameters are separated by commas.
        let members = field.contains(";") ? field.split(separator: ",") : [Substring(field)]
        return members.compactMap { member in
            var parameters: [String: Double] = [:]
            for part in member.split(whereSeparator: { $0 == ";" || $0 == "," }) {
                let pair = part.split(separator: "=", maxSplits: 1)
                guard pair.count == 2, let value = number(String(pair[1])) else { continue }
                parameters[pair[0].trimmingCharacters(in: .whitespaces).lowercased()] = value
            }
            guard let remaining = parameters["r"] ?? parameters["remaining"], remaining <= 0 else {
                return nil
            }
            return parameters["t"] ?? parameters["reset"]
        }
    }

    private static func number(_ text: String) -> Double? {
        Double(text.trimmingCharacters(in: CharacterSet(charactersIn: " \t\"")))
    }
}
