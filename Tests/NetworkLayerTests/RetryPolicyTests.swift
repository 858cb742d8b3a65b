import Foundation
import XCTest

@testable import NetworkLayer

/// The retry policy's rules, without a network: what is retried, how long the wait is, `Retry-After`.
final class RetryPolicyTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)  // Tue, 14 Nov 2023 22:13:20 GMT

    private func status(_ code: Int, headers: ResponseHeaders = [:]) -> NetworkError {
        .unacceptableStatusCode(code, body: Data(), headers: headers)
    }

    // MARK: - What is retried

    func testNoneAndDefault() {
        XCTAssertEqual(RetryPolicy.none.maximumAttempts, 1)
        XCTAssertFalse(RetryPolicy.none.retries)
        XCTAssertNil(RetryPolicy.none.delay(afterAttempt: 1, of: .get, failingWith: .timedOut))
        XCTAssertEqual(
            RetryPolicy.default,
            RetryPolicy(
                maximumAttempts: 3, initialDelay: 0.5, maximumDelay: 30, retriesNonIdempotentRequests: false))
        XCTAssertTrue(RetryPolicy.default.retries)
    }

    func testRetriedStatusesAndTransportFailures() {
        let policy = RetryPolicy(maximumAttempts: 5)
        for code in [408, 429, 500, 502, 503, 504] {
            XCTAssertNotNil(policy.delay(afterAttempt: 1, of: .get, failingWith: status(code)), "\(code)")
        }
        for code in [400, 401, 403, 404, 409, 422, 501, 505] {
            XCTAssertNil(policy.delay(afterAttempt: 1, of: .get, failingWith: status(code)), "\(code)")
        }
        let retried: [URLError.Code] = [
            .timedOut, .networkConnectionLost, .notConnectedToInternet, .cannotConnectToHost,
            .dnsLookupFailed, .cannotFindHost,
        ]
        for code in retried {
            XCTAssertNotNil(
                policy.delay(afterAttempt: 1, of: .get, failingWith: .transport(URLError(code))), "\(code)")
        }
        let notRetried: [URLError.Code] = [
            .cancelled, .badURL, .serverCertificateUntrusted, .dataLengthExceedsMaximum, .badServerResponse,
        ]
        for code in notRetried {
            XCTAssertNil(
                policy.delay(afterAttempt: 1, of: .get, failingWith: .transport(URLError(code))), "\(code)")
        }
        XCTAssertNotNil(policy.delay(afterAttempt: 1, of: .get, failingWith: .timedOut))
        for error: NetworkError in [.cancelled, .emptyResponse, .invalidResponse, "custom", .invalidURL("x")]
        {
            XCTAssertNil(policy.delay(afterAttempt: 1, of: .get, failingWith: error), "\(error)")
        }
    }

    func testOnlyIdempotentMethodsUnlessOptedIn() {
        let policy = RetryPolicy(maximumAttempts: 3)
        for method: HTTPMethod in [.get, .head, .put, .delete, .options] {
            XCTAssertNotNil(policy.delay(afterAttempt: 1, of: method, failingWith: status(503)), "\(method)")
        }
        for method: HTTPMethod in [.post, .patch] {
            XCTAssertNil(policy.delay(afterAttempt: 1, of: method, failingWith: status(503)), "\(method)")
        }
        let optedIn = RetryPolicy(maximumAttempts: 3, retriesNonIdempotentRequests: true)
        for method in HTTPMethod.allCases {
            XCTAssertNotNil(optedIn.delay(afterAttempt: 1, of: method, failingWith: status(503)), "\(method)")
        }
    }

    func testStopsAtMaximumAttempts() {
        let policy = RetryPolicy(maximumAttempts: 3, initialDelay: 0.1)
        XCTAssertNotNil(policy.delay(afterAttempt: 1, of: .get, failingWith: .timedOut))
        XCTAssertNotNil(policy.delay(afterAttempt: 2, of: .get, failingWith: .timedOut))
        XCTAssertNil(policy.delay(afterAttempt: 3, of: .get, failingWith: .timedOut))
        XCTAssertNil(
            policy.delay(afterAttempt: 3, of: .get, failingWith: status(503, headers: ["Retry-After": "0"])))
        XCTAssertNil(RetryPolicy(maximumAttempts: 0).delay(afterAttempt: 1, of: .get, failingWith: .timedOut))
    }

    // MARK: - Backoff

    func testBackoffIsFullJitterBelowTheDoublingCap() {
        let policy = RetryPolicy(maximumAttempts: 10, initialDelay: 0.5, maximumDelay: 3)
        for attempt in 1...9 {
            let ceiling = min(3, 0.5 * pow(2, Double(attempt - 1)))
            let delays = (0..<500).compactMap { _ in
                policy.delay(afterAttempt: attempt, of: .get, failingWith: status(503))
            }
            XCTAssertEqual(delays.count, 500)
            XCTAssertGreaterThanOrEqual(delays.min() ?? -1, 0, "attempt \(attempt)")
            XCTAssertLessThanOrEqual(delays.max() ?? .infinity, ceiling, "attempt \(attempt)")
            // Full jitter: the waits spread over the whole range, not bunched at the cap.
            XCTAssertLessThan(delays.min() ?? .infinity, ceiling * 0.2, "attempt \(attempt)")
            XCTAssertGreaterThan(delays.max() ?? 0, ceiling * 0.8, "attempt \(attempt)")
        }
    }

    func testZeroInitialDelayRetriesAtOnce() {
        let policy = RetryPolicy(maximumAttempts: 3, initialDelay: 0)
        XCTAssertEqual(policy.delay(afterAttempt: 1, of: .get, failingWith: .timedOut), 0)
    }

    func testAbsurdDelaysNeverCrashOrRetryAtOnce() {
        // Regression: an infinite ceiling crashed `Double.random(in:)`, and an infinite wait retried at once.
        let endless = RetryPolicy(maximumAttempts: 3, initialDelay: .infinity, maximumDelay: .infinity)
        XCTAssertNil(endless.delay(afterAttempt: 1, of: .get, failingWith: .timedOut))
        let nan = RetryPolicy(maximumAttempts: 3, initialDelay: .nan, maximumDelay: .nan)
        XCTAssertNil(nan.delay(afterAttempt: 1, of: .get, failingWith: .timedOut))
        let negative = RetryPolicy(maximumAttempts: 3, initialDelay: -1, maximumDelay: 5)
        XCTAssertEqual(negative.delay(afterAttempt: 1, of: .get, failingWith: .timedOut), 0)
        let big = RetryPolicy(maximumAttempts: 3, initialDelay: 1e300, maximumDelay: 2)
        let delay = big.delay(afterAttempt: 2, of: .get, failingWith: .timedOut)
        XCTAssertNotNil(delay)
        XCTAssertLessThanOrEqual(delay ?? .infinity, 2)
    }

    // MARK: - Retry-After

    func testRetryAfterSecondsIsTheWait() {
        let policy = RetryPolicy(maximumAttempts: 3, initialDelay: 0.5, maximumDelay: 30)
        for code in [429, 503] {
            let error = status(code, headers: ["Retry-After": "7"])
            XCTAssertEqual(policy.delay(afterAttempt: 1, of: .get, failingWith: error, now: now), 7)
        }
        XCTAssertEqual(
            policy.delay(
                afterAttempt: 1, of: .get, failingWith: status(503, headers: ["retry-after": " 2 "])),
            2, "any case, surrounding spaces")
        XCTAssertEqual(
            policy.delay(afterAttempt: 1, of: .get, failingWith: status(503, headers: ["Retry-After": "30"])),
            30, "exactly the maximum is still a retry")
    }

    func testRetryAfterBeyondTheMaximumMeansNoRetry() {
        let policy = RetryPolicy(maximumAttempts: 3, maximumDelay: 30)
        XCTAssertNil(
            policy.delay(afterAttempt: 1, of: .get, failingWith: status(503, headers: ["Retry-After": "31"])))
        XCTAssertNil(
            policy.delay(
                afterAttempt: 1, of: .get, failingWith: status(503, headers: ["Retry-After": "86400"])))
    }

    func testRetryAfterTooLargeForAnIntMeansNoRetry() {
        // Regression: digits beyond Int's range were not read as a number, so the policy fell back to its
        // backoff and retried a server that asked for a wait of centuries.
        let huge = status(503, headers: ["Retry-After": "99999999999999999999999"])
        XCTAssertNil(RetryPolicy.default.delay(afterAttempt: 1, of: .get, failingWith: huge))
        XCTAssertEqual(
            RetryPolicy.retryAfter(in: ["Retry-After": "99999999999999999999999"], now: now) ?? 0, 1e23,
            accuracy: 1e10)
        let endless = status(503, headers: ["Retry-After": String(repeating: "9", count: 400)])
        let patient = RetryPolicy(maximumAttempts: 3, maximumDelay: .infinity)
        XCTAssertNil(patient.delay(afterAttempt: 1, of: .get, failingWith: endless), "not a retry at once")
    }

    func testRetryAfterHTTPDates() {
        let imf = ["Retry-After": "Tue, 14 Nov 2023 22:13:25 GMT"]
        XCTAssertEqual(RetryPolicy.retryAfter(in: imf, now: now), 5)
        let rfc850 = ["Retry-After": "Tuesday, 14-Nov-23 22:13:30 GMT"]
        XCTAssertEqual(RetryPolicy.retryAfter(in: rfc850, now: now), 10)
        let asctime = ["Retry-After": "Tue Nov 14 22:13:40 2023"]
        XCTAssertEqual(RetryPolicy.retryAfter(in: asctime, now: now), 20)
        let asctimeOneDigitDay = ["Retry-After": "Thu Nov  2 22:13:20 2023"]
        XCTAssertEqual(RetryPolicy.retryAfter(in: asctimeOneDigitDay, now: now), 0, "a date in the past")
        let past = ["Retry-After": "Mon, 13 Nov 2023 22:13:20 GMT"]
        XCTAssertEqual(RetryPolicy.retryAfter(in: past, now: now), 0, "never negative")
        let policy = RetryPolicy(maximumAttempts: 3, maximumDelay: 8)
        XCTAssertEqual(
            policy.delay(
                afterAttempt: 1, of: .get, failingWith: status(503, headers: ResponseHeaders(imf)), now: now),
            5)
        XCTAssertNil(
            policy.delay(
                afterAttempt: 1, of: .get, failingWith: status(503, headers: ResponseHeaders(rfc850)),
                now: now),
            "a date beyond the maximum: no retry")
    }

    func testUnreadableRetryAfterFallsBackToBackoff() {
        XCTAssertNil(RetryPolicy.retryAfter(in: ["Retry-After": "soon"], now: now))
        XCTAssertNil(RetryPolicy.retryAfter(in: ["Retry-After": ""], now: now))
        XCTAssertNil(RetryPolicy.retryAfter(in: ["Retry-After": "-5"], now: now), "delta-seconds are digits")
        XCTAssertNil(RetryPolicy.retryAfter(in: ["Retry-After": "1.5"], now: now), "delta-seconds are digits")
        XCTAssertNil(RetryPolicy.retryAfter(in: [:], now: now))
        let policy = RetryPolicy(maximumAttempts: 3, initialDelay: 0.5, maximumDelay: 30)
        let delay = policy.delay(
            afterAttempt: 1, of: .get, failingWith: status(503, headers: ["Retry-After": "soon"]))
        XCTAssertNotNil(delay)
        XCTAssertLessThanOrEqual(delay ?? .infinity, 0.5)
    }

    func testRetryAfterOnAStatusThatIsNotRetriedIsIgnored() {
        let error = status(404, headers: ["Retry-After": "1"])
        XCTAssertNil(RetryPolicy.default.delay(afterAttempt: 1, of: .get, failingWith: error))
    }
}

extension RetryPolicy {
    /// The delay as a layer on a real clock reads it, for the rules that don't depend on the date.
    fileprivate func delay(afterAttempt attempt: Int, of method: HTTPMethod, failingWith error: NetworkError)
        -> TimeInterval?
    {
        delay(afterAttempt: attempt, of: method, failingWith: error, now: Date())
    }
}
