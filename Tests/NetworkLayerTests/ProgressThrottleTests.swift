import Foundation
import XCTest

@testable import NetworkLayer

/// The progress throttle's wait. Its `now` is read before its lock, so a delivery on the callback queue
/// may record a later time in between: the wait must not underflow (it trapped once, under load, in
/// ResumeTests).
final class ProgressThrottleTests: XCTestCase {
    private let interval = ProgressReporter.interval

    func testAFreshDeliveryWaitsTheRestOfTheInterval() {
        XCTAssertEqual(ProgressReporter.delay(since: 1_000, now: 1_000 + interval), 0)
        XCTAssertEqual(
            ProgressReporter.delay(since: 1_000, now: 1_000 + interval / 3), interval - interval / 3)
    }

    func testADeliveryRecordedAfterTheReadingWaitsTheFullInterval() {
        XCTAssertEqual(ProgressReporter.delay(since: 5_000_000_000, now: 4_999_000_000), interval)
    }
}
