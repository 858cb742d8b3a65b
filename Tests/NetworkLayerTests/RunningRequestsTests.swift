import Foundation
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `cancelAll()` reaches a request from the moment it starts, not only once its request method returns.
final class RunningRequestsTests: XCTestCase {
    /// The window held open on purpose: `cancelAll()` runs while the request is on the wire and its
    /// request method has not returned yet, as another thread's `cancelAll()` can.
    func testCancelAllDuringStartCancelsTheRequest() {
        let running = RunningRequests()
        let cancelled = expectation(description: "the error handler gets .cancelled")
        let queue = DispatchQueue(label: "RunningRequestsTests")
        let task = running.track(
            successHandler: { (_: Int) in XCTFail("no reply was given") },
            errorHandler: { error in
                guard case .cancelled = error else { return XCTFail("\(error)") }
                cancelled.fulfill()
            },
            start: { _, errorHandler in
                let task = RequestTask(
                    delivery: CallbackDelivery(queue: queue), failureHandler: errorHandler,
                    clock: SystemClock())
                // The request is on the wire here: a cancelAll() now must not miss it.
                running.cancelAll()
                return task
            })
        wait(for: [cancelled], timeout: 5)
        XCTAssertEqual(running.count, 0)
        task.cancel()  // after the handler ran: nothing more happens
    }

    /// A `cancelAll()` reaches the requests begun before it, not one that begins after it.
    func testACancelAllBeforeARequestBeginsLeavesItRunning() throws {
        let running = RunningRequests()
        let cancelled = expectation(description: "the request begun before cancelAll() gets .cancelled")
        _ = running.track(
            successHandler: { (_: Int) in XCTFail("no reply was given") },
            errorHandler: { error in
                guard case .cancelled = error else { return XCTFail("\(error)") }
                cancelled.fulfill()
            },
            start: { _, errorHandler in
                RequestTask(delivery: .immediate, failureHandler: errorHandler, clock: SystemClock())
            })
        running.cancelAll()
        wait(for: [cancelled], timeout: 5)
        let delivered = expectation(description: "the success handler runs")
        var started: (task: RequestTask, succeed: (Int) -> Void)?
        _ = running.track(
            successHandler: { (value: Int) in
                XCTAssertEqual(value, 7)
                delivered.fulfill()
            },
            errorHandler: { XCTFail("begun after cancelAll(), yet: \($0)") },
            start: { successHandler, errorHandler in
                let task = RequestTask(
                    delivery: .immediate, failureHandler: errorHandler, clock: SystemClock())
                started = (task, successHandler)
                return task
            })
        let (task, succeed) = try XCTUnwrap(started)
        task.succeed { succeed(7) }
        wait(for: [delivered], timeout: 5)
        XCTAssertEqual(running.count, 0)
    }

    /// A request answered before its request method returns leaves no entry behind.
    func testARequestAnsweredInPlaceLeavesTheRegistry() {
        let running = RunningRequests()
        var value: Int?
        _ = running.track(
            successHandler: { (reply: Int) in value = reply }, errorHandler: { _ in },
            start: { successHandler, errorHandler in
                successHandler(7)
                return RequestTask(
                    delivery: CallbackDelivery(queue: .main), failureHandler: errorHandler,
                    clock: SystemClock())
            })
        XCTAssertEqual(value, 7)
        XCTAssertEqual(running.count, 0)
    }
}
