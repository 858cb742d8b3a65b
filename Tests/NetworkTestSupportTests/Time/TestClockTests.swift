import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// The test clock on its own: it moves only when advanced, and as a Swift `Clock` an app's own code
/// can sleep on it.
final class TestClockTests: XCTestCase {
    func testItStandsStillUntilAdvanced() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let clock = TestClock(startingAt: start)
        XCTAssertEqual(clock.date, start)
        clock.advance(by: 90.5)
        XCTAssertEqual(clock.elapsed, 90.5)
        XCTAssertEqual(clock.date, start.addingTimeInterval(90.5))
        XCTAssertEqual(clock.advance(by: 0), 0, "nothing armed, nothing run")
    }

    func testASleepOnTheSwiftClockEndsWhenTheClockPassesItsDeadline() async throws {
        let clock = TestClock()
        let woke = expectation(description: "woke")
        let sleeper = Task {
            try await clock.sleep(for: .seconds(5))
            woke.fulfill()
        }
        let armed = await clock.wait { !$0.pendingDeadlines.isEmpty }
        XCTAssertTrue(armed, "the sleep arms a timer")
        XCTAssertEqual(clock.pendingDeadlines, [5])
        clock.advance(by: .seconds(4))
        XCTAssertEqual(clock.pendingDeadlines, [1], "still asleep")
        clock.advance(by: .seconds(1))
        await fulfillment(of: [woke], timeout: 10)
        try await sleeper.value
        XCTAssertEqual(clock.now, TestClock.Instant(offset: .seconds(5)))
    }

    func testACancelledSleepThrowsAndLeavesNoTimer() async {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        let armed = await clock.wait { !$0.pendingDeadlines.isEmpty }
        XCTAssertTrue(armed)
        sleeper.cancel()
        do {
            try await sleeper.value
            XCTFail("a cancelled sleep returned")
        } catch {
            XCTAssertTrue(error is CancellationError, "\(error)")
        }
        XCTAssertTrue(clock.pendingDeadlines.isEmpty)
    }

    func testWaitingForTimersThatNeverComeReturnsFalseAtTheTimeout() {
        XCTAssertFalse(TestClock().wait(timeout: 0.05) { !$0.pendingDeadlines.isEmpty })
    }

    func testASleepUntilAPassedDeadlineReturnsAtOnce() async throws {
        let clock = TestClock()
        clock.advance(by: 10)
        try await clock.sleep(until: TestClock.Instant(offset: .seconds(5)))
        try await clock.sleep(for: .zero)
        XCTAssertTrue(clock.pendingDeadlines.isEmpty)
    }

    func testASleepForEverArmsAFarDeadlineWithoutOverflowing() async {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(until: TestClock.Instant(offset: .seconds(Int64.max))) }
        let armed = await clock.wait { !$0.pendingDeadlines.isEmpty }
        XCTAssertTrue(armed)
        sleeper.cancel()
        _ = try? await sleeper.value
    }
}
