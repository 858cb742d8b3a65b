import Foundation
import XCTest

@testable import NetworkInspector
@testable import NetworkLayer

/// The waterfall's phases from a record's times (``PhaseTimeline``).
final class PhaseTimelineTests: XCTestCase {
    private func record(attemptStart: Double) -> RequestRecord {
        var record = RequestRecord(
            id: "1", layer: "", method: "GET", url: "https://api.example.com/items", start: 0, account: nil)
        let curl = CurlCommand(
            method: "GET", url: record.url, headers: [], body: nil, bodyLimit: 0, isRedacted: true)
        record.attempts.append(.init(number: 1, start: attemptStart, requestHeaders: [], curl: curl))
        record.end = 10
        return record
    }

    private var metrics: RequestMetrics {
        var metrics = RequestMetrics(
            startDate: Date(), duration: 0.010, timeToFirstByte: 0.005, bytesSent: 0, bytesReceived: 2,
            attempts: 1)
        metrics.decodeDuration = 0.001
        metrics.deliveryDuration = 0.001
        return metrics
    }

    func testARequestOverTheNetworkIsOnTheWireThenDecodedThenDelivered() {
        let phases = PhaseTimeline(record: record(attemptStart: 1), metrics: metrics).phases
        XCTAssertEqual(phases.map(\.name), ["wire", "decoding", "delivered"])
        XCTAssertEqual(phases.first?.start, 1)
        XCTAssertEqual(phases.last?.end, 10)
    }

    /// The monitors' queue read the attempt's start after the reply had come (it lags under load): the
    /// request still has its bar, the wire starting where its waits end. It had none before.
    func testAnAttemptStartReadAfterTheReplyStillLeavesABar() {
        let phases = PhaseTimeline(record: record(attemptStart: 12), metrics: metrics).phases
        XCTAssertEqual(phases.map(\.name), ["wire", "decoding", "delivered"])
        XCTAssertEqual(phases.first?.start, 0)
        XCTAssertEqual(phases.last?.end, 10)
    }
}
