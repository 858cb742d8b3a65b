import Foundation
import XCTest

@testable import NetworkLayer

/// With no monitors, nothing is spent on them.
final class MonitorGroupTests: XCTestCase {
    private struct Silent: NetworkMonitor {}

    func testNoMonitorsMakeNoGroup() {
        XCTAssertNil(MonitorGroup([]))
        XCTAssertNil(NetworkLayer().monitorGroup)
        XCTAssertNotNil(MonitorGroup([Silent()]))
        XCTAssertNotNil(NetworkLayer(monitors: [Silent()]).monitorGroup)
    }

    /// A monitor that opts out of attempt events gets none: one hop to the monitors' queue per request
    /// instead of three. A logger at any level wants them, for the URL as sent.
    func testOnlyMonitorsThatMayUseThemGetAttemptEvents() throws {
        let quiet = try XCTUnwrap(MonitorGroup([FinishOnly(), FinishOnly()]))
        XCTAssertFalse(quiet.wantsAttemptEvents)
        XCTAssertEqual(MonitorGroup([NetworkLogger(level: .full)])?.wantsAttemptEvents, true)
        XCTAssertEqual(MonitorGroup([NetworkLogger(level: .errors)])?.wantsAttemptEvents, true)
        XCTAssertEqual(MonitorGroup([FinishOnly(), Silent()])?.wantsAttemptEvents, true)

        let lock = NSLock()
        nonisolated(unsafe) var calls = 0
        let channel = quiet.channel()
        channel.emit { _ in lock.withLock { calls += 1 } }
        channel.finish { _ in lock.withLock { calls += 1 } }
        let drained = expectation(description: "the monitors' queue is drained")
        drained.expectedFulfillmentCount = 2
        quiet.emit { _ in drained.fulfill() }
        wait(for: [drained], timeout: 5)
        XCTAssertEqual(lock.withLock { calls }, 2, "the finish, once per monitor; no attempt event")
    }

    /// Hears only of finished requests.
    private struct FinishOnly: NetworkMonitor {
        var observesAttempts: Bool { false }
    }

    func testRequestIDsAreUnique() {
        let ids = (0..<1_000).map { _ in MonitorGroup.nextID() }
        XCTAssertEqual(Set(ids).count, ids.count)
    }

    func testAChannelReportsNothingAfterItsFinish() {
        let lock = NSLock()
        nonisolated(unsafe) var calls: [String] = []
        struct Probe: NetworkMonitor {
            let note: @Sendable (String) -> Void
            func didStart(_ attempt: MonitoredAttempt) { note("start") }
            func didFinish(
                _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
                metrics: RequestMetrics
            ) { note("finish") }
        }
        let group = MonitorGroup([Probe { line in lock.withLock { calls.append(line) } }])
        let channel = group?.channel()
        let request = MonitoredRequest(method: .get, url: nil)
        let attempt = MonitoredAttempt(request: request, number: 1)
        let metrics = RequestMetrics(
            startDate: Date(), duration: 0, timeToFirstByte: nil, bytesSent: 0, bytesReceived: 0, attempts: 1)
        channel?.emit { $0.didStart(attempt) }
        channel?.finish { $0.didFinish(request, with: .failure(.cancelled), metrics: metrics) }
        channel?.emit { $0.didStart(attempt) }
        channel?.finish { $0.didFinish(request, with: .failure(.cancelled), metrics: metrics) }
        let drained = expectation(description: "the monitors' queue is drained")
        group?.emit { _ in drained.fulfill() }
        wait(for: [drained], timeout: 5)
        XCTAssertEqual(lock.withLock { calls }, ["start", "finish"])
    }
}
