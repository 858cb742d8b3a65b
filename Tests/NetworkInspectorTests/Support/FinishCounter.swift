import Foundation
import NetworkLayer
import XCTest

/// A monitor placed after the inspector: monitors hear each event in order on one queue, so once it
/// heard a request finish, the inspector has recorded it.
final class FinishCounter: NetworkMonitor, @unchecked Sendable {
    private let lock = NSLock()
    private var finished = 0
    private var waiters: [(count: Int, expectation: XCTestExpectation)] = []

    var observesAttempts: Bool { false }

    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        lock.lock()
        finished += 1
        let ready = waiters.filter { $0.count <= finished }
        waiters.removeAll { $0.count <= finished }
        lock.unlock()
        for waiter in ready { waiter.expectation.fulfill() }
    }

    /// An expectation fulfilled once `count` requests have finished.
    func expectation(finishing count: Int) -> XCTestExpectation {
        let expectation = XCTestExpectation(description: "\(count) requests finished")
        lock.lock()
        if finished >= count {
            expectation.fulfill()
        } else {
            waiters.append((count, expectation))
        }
        lock.unlock()
        return expectation
    }
}
