import Foundation
import XCTest

@testable import NetworkLayer

/// The one backoff: doubling, its cap, its jitter and its floor, with a random source the test sets.
final class BackoffTests: XCTestCase {
    /// The same number every time: 1 draws each range's lower bound, `.max` its upper one (0 would be
    /// rejected for ever by the unbiased draw).
    private struct FixedGenerator: RandomNumberGenerator {
        let value: UInt64
        mutating func next() -> UInt64 { value }
    }

    private func delays(_ backoff: Backoff, _ failures: ClosedRange<Int>, drawing value: UInt64)
        -> [TimeInterval?]
    {
        var generator = FixedGenerator(value: value)
        return failures.map { backoff.delay(afterFailures: $0, using: &generator) }
    }

    func testWithoutJitterTheWaitDoublesUpToTheCap() {
        let backoff = Backoff(initialDelay: 0.5, maximumDelay: 6)
        XCTAssertEqual(delays(backoff, 1...6, drawing: 1), [0.5, 1, 2, 4, 6, 6])
        XCTAssertEqual(backoff.delay(afterFailures: 0), 0.5, "no failure yet counts as the first")
        XCTAssertEqual(backoff.delay(afterFailures: .max), 6, "the doubling stops before it overflows")
    }

    func testFullJitterDrawsFromZeroToTheDoubledWait() {
        let backoff = Backoff(initialDelay: 1, maximumDelay: 30, jitter: .full)
        XCTAssertEqual(delays(backoff, 1...3, drawing: 1), [0, 0, 0])
        for (delay, ceiling) in zip(delays(backoff, 1...6, drawing: .max), [1.0, 2, 4, 8, 16, 30]) {
            XCTAssertEqual(delay ?? -1, ceiling, accuracy: ceiling * 1e-9)
        }
    }

    func testUpperHalfJitterNeverWaitsLessThanHalf() {
        let backoff = Backoff(initialDelay: 1, maximumDelay: 30, jitter: .upperHalf)
        XCTAssertEqual(delays(backoff, 1...6, drawing: 1), [0.5, 1, 2, 4, 8, 15])
        for (delay, ceiling) in zip(delays(backoff, 1...6, drawing: .max), [1.0, 2, 4, 8, 16, 30]) {
            XCTAssertEqual(delay ?? -1, ceiling, accuracy: ceiling * 1e-9)
        }
        // The system's source stays within the same bounds.
        for failures in 1...40 {
            let ceiling = min(30, pow(2, Double(failures - 1)))
            let delay = backoff.delay(afterFailures: failures) ?? -1
            XCTAssertTrue((ceiling / 2...ceiling).contains(delay), "\(failures): \(delay)")
        }
    }

    func testTheFloorHoldsAfterJitterAndAboveTheCap() {
        let backoff = Backoff(initialDelay: 0, maximumDelay: 0, jitter: .full, minimumDelay: 0.25)
        XCTAssertEqual(delays(backoff, 1...3, drawing: 1), [0.25, 0.25, 0.25])
        let jittered = Backoff(initialDelay: 1, maximumDelay: 8, jitter: .full, minimumDelay: 0.5)
        XCTAssertEqual(delays(jittered, 1...2, drawing: 1), [0.5, 0.5])
    }

    func testAnEndlessWaitIsNoneAndANegativeOneIsZero() {
        XCTAssertNil(Backoff(initialDelay: .infinity, maximumDelay: .infinity).delay(afterFailures: 1))
        XCTAssertNil(Backoff(initialDelay: .nan, maximumDelay: .nan, jitter: .full).delay(afterFailures: 1))
        XCTAssertEqual(Backoff(initialDelay: .infinity, maximumDelay: 3).delay(afterFailures: 1), 3)
        XCTAssertEqual(Backoff(initialDelay: -1, maximumDelay: 5, jitter: .full).delay(afterFailures: 1), 0)
        XCTAssertEqual(Backoff(initialDelay: 0, maximumDelay: 5).delay(afterFailures: 5_000), 0)
    }
}
