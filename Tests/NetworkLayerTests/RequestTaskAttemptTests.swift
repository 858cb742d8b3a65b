import Foundation
import XCTest

@testable import NetworkLayer

/// How a task keeps its attempts' cancel actions, driven by hand in the orders the pipeline and a
/// cancelling thread can produce. A download's `.cancelled` waits for its transport to end, so that its
/// partial file is complete when the handler runs.
final class RequestTaskAttemptTests: XCTestCase {
    private final class Journal: @unchecked Sendable {
        private let lock = NSLock()
        private var entries: [String] = []

        func note(_ entry: String) { lock.withLock { entries.append(entry) } }
        var all: [String] { lock.withLock { entries } }
    }

    private func downloadTask(_ journal: Journal) -> RequestTask {
        RequestTask(
            delivery: .immediate,
            failureHandler: { journal.note("handler: \($0)") }, cancelWaitsForTransport: true,
            clock: SystemClock())
    }

    func testADownloadCancelledBeforeItsAttemptIsLinkedWaitsForThatTransport() throws {
        try assertCancelWaitsForTheAttemptBeingSent(afterEndedAttempts: 0)
    }

    func testADownloadCancelledWhileItsRetryIsSentWaitsForTheRetry() throws {
        try assertCancelWaitsForTheAttemptBeingSent(afterEndedAttempts: 1)
    }

    /// Ends `count` attempts, begins one more and, while its transport is sending but before `send` has
    /// returned its cancel action, cancels the task from another thread.
    private func assertCancelWaitsForTheAttemptBeingSent(
        afterEndedAttempts count: Int, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let journal = Journal()
        let task = downloadTask(journal)
        for number in 0..<count {
            let attempt = try XCTUnwrap(task.beginAttempt()?.child)
            task.attach(cancellingWith: { journal.note("attempt \(number) cancelled") }, toAttempt: attempt)
            task.transportFinished()
        }
        let sending = try XCTUnwrap(task.beginAttempt()?.child)
        task.cancel()
        task.attach(cancellingWith: { journal.note("transport cancelled") }, toAttempt: sending)
        journal.note("transport ended")
        task.transportFinished()

        XCTAssertEqual(
            journal.all, ["transport cancelled", "transport ended", "handler: cancelled"], file: file,
            line: line)
    }

    func testACancelBetweenAttemptsIsDeliveredAtOnceAndNoFurtherAttemptBegins() throws {
        let journal = Journal()
        let task = downloadTask(journal)
        let first = try XCTUnwrap(task.beginAttempt()?.child)
        task.attach(cancellingWith: { journal.note("1 cancelled") }, toAttempt: first)
        task.transportFinished()

        task.cancel()

        XCTAssertEqual(journal.all, ["handler: cancelled"], "no transport is running to wait for")
        XCTAssertNil(task.beginAttempt(), "a retry that was about to go out is not sent")
    }

    func testALateLinkOfAnAttemptThatAlreadyEndedDoesNotHideTheRetry() throws {
        let journal = Journal()
        let task = downloadTask(journal)
        let first = try XCTUnwrap(task.beginAttempt()?.child)
        // Answered in place, or failed fast, before its `send` returned; the retry went out meanwhile.
        task.transportFinished()
        let second = try XCTUnwrap(task.beginAttempt()?.child)
        task.attach(cancellingWith: { journal.note("2 cancelled") }, toAttempt: second)
        task.attach(cancellingWith: { journal.note("1 cancelled") }, toAttempt: first)

        task.cancel()
        XCTAssertEqual(journal.all, ["2 cancelled"])
        task.transportFinished()
        XCTAssertEqual(journal.all, ["2 cancelled", "handler: cancelled"])
    }
}
