import Foundation
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Which failures keep an item and which make it a dead letter.
final class OutboxVerdictTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func status(_ code: Int, _ headers: [String: String] = [:]) -> NetworkError {
        .unacceptableStatusCode(code, body: Data(), headers: ResponseHeaders(headers))
    }

    func testTransientFailuresAreRetriedAndTheRestRejected() {
        XCTAssertEqual(OutboxVerdict(status(503, ["Retry-After": "1"]), now: now), .retry(after: 1))
        for code in [408, 429, 500, 502, 504, 599] {
            XCTAssertEqual(OutboxVerdict(status(code), now: now), .retry(after: nil), "\(code)")
        }
        for code in [400, 401, 403, 404, 409, 410, 422] {
            XCTAssertEqual(OutboxVerdict(status(code), now: now), .reject, "\(code)")
        }
        XCTAssertEqual(
            OutboxVerdict(.transport(URLError(.notConnectedToInternet)), now: now), .retry(after: nil))
        XCTAssertEqual(OutboxVerdict(.timedOut, now: now), .retry(after: nil))
        XCTAssertEqual(OutboxVerdict(.cancelled, now: now), .retry(after: nil))
        XCTAssertEqual(OutboxVerdict(.invalidURL("::"), now: now), .reject)
    }

    func testA409WithRetryAfterIsAKeyStillBeingHandled() {
        XCTAssertEqual(OutboxVerdict(status(409, ["Retry-After": "2"]), now: now), .retry(after: 2))
    }

    func testARateLimitPastTheTimeLimitIsWaitedFor() {
        XCTAssertEqual(
            OutboxVerdict(.rateLimited(until: now.addingTimeInterval(3600)), now: now), .retry(after: 3600))
    }
}
