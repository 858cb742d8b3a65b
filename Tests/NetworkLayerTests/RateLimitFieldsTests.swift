import Foundation
import XCTest

@testable import NetworkLayer

/// Which replies ask every client of their origin for a pause, and how long (issue 34).
final class RateLimitFieldsTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    private func pause(_ status: Int, _ fields: [String: String]) -> TimeInterval? {
        let headers = ResponseHeaders(fields)
        return RateLimitFields.pause(statusCode: status, field: { headers[$0] }, now: now)
    }

    func testRetryAfterCountsOnlyOn429And503() {
        XCTAssertEqual(pause(429, ["Retry-After": "2"]), 2)
        XCTAssertEqual(pause(503, ["retry-after": "7"]), 7)
        XCTAssertNil(pause(500, ["Retry-After": "2"]))
        XCTAssertNil(pause(200, ["Retry-After": "2"]))
        XCTAssertEqual(pause(429, ["Retry-After": "Tue, 14 Nov 2023 22:13:25 GMT"]), 5)
    }

    func testTheIETFRateLimitFieldInBothSyntaxes() {
        XCTAssertEqual(pause(200, ["RateLimit": #""default";r=0;t=10"#]), 10)
        XCTAssertNil(pause(200, ["RateLimit": #""default";r=3;t=10"#]), "requests remain")
        XCTAssertEqual(
            pause(200, ["RateLimit": #""a";r=5;t=1, "b";r=0;t=30"#]), 30, "the policy with none left")
        XCTAssertEqual(pause(200, ["RateLimit": "limit=100, remaining=0, reset=4"]), 4)
        XCTAssertEqual(pause(200, ["RateLimit-Remaining": "0", "RateLimit-Reset": "6"]), 6)
    }

    func testTheCommonXRateLimitFieldsInSecondsOrAsAUnixTime() {
        XCTAssertEqual(pause(200, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "3"]), 3)
        XCTAssertEqual(pause(403, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1700000060"]), 60)
        XCTAssertNil(pause(200, ["X-RateLimit-Remaining": "12", "X-RateLimit-Reset": "3"]))
        XCTAssertNil(pause(200, ["X-RateLimit-Remaining": "0"]), "no reset, no pause")
    }

    /// From 1e11 (as seconds, a date past the year 5138) a reset is a Unix time in milliseconds.
    func testAResetThatCanOnlyBeMillisecondsIsAUnixTimeInMilliseconds() {
        XCTAssertEqual(pause(429, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1700000060000"]), 60)
        XCTAssertEqual(pause(200, ["RateLimit-Remaining": "0", "RateLimit-Reset": "1700000002500"]), 2.5)
        XCTAssertNil(
            pause(200, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "100000000000"]),
            "March 1973 in milliseconds: past")
        XCTAssertEqual(
            pause(200, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "1700003600"]), 3_600,
            "below 1e11, a Unix time in seconds")
        XCTAssertEqual(
            pause(200, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "60000"]), 60_000,
            "a wait is always seconds: the ceiling bounds it")
    }

    func testNonsenseAsksForNothingAndAbsurdPausesAreCapped() {
        XCTAssertNil(pause(429, ["Retry-After": "soon"]))
        XCTAssertNil(pause(200, ["RateLimit": "garbage;;=,="]))
        XCTAssertNil(pause(200, ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "-5"]))
        XCTAssertEqual(pause(429, ["Retry-After": "99999999999999"]), 365 * 86_400)
    }
}
