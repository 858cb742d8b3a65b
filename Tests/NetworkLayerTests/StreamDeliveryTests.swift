import Foundation
import XCTest

@testable import NetworkLayer

/// A stream's back-pressure between its delivery and its transfer: every pause asked for while the
/// consumer is behind holds, whatever order the resumes arrive in.
final class StreamDeliveryTests: XCTestCase {
    /// A transfer as the delivery sees it: pauses counted as ``Transfer`` counts them, and each resume
    /// held until the test lets it arrive, the way it travels to the delegate queue from the consumer.
    private final class Flow: TransferFlow, @unchecked Sendable {
        /// A running transfer's lifecycle, which counts them.
        var pauses = TransferLifecycle()
        private var resumesOnTheirWay = 0

        init() {
            pauses.began()
        }

        func pauseReading() { _ = pauses.pause() }
        func resumeReading() { resumesOnTheirWay += 1 }

        func resumesArrive() {
            for _ in 0..<resumesOnTheirWay { _ = pauses.resume() }
            resumesOnTheirWay = 0
        }
    }

    private var receipts: [StreamReceipt] = []
    private lazy var delivery = StreamDelivery<Int> { [unowned self] _, receipt in receipts.append(receipt) }

    /// Hands over one element more than the delivery lets the consumer fall behind by.
    private func overflow(through flow: Flow, size: Int = StreamDelivery<Int>.limit + 1) {
        delivery.deliver([(1, size)], pause: { flow.pauseReading() }, resume: { flow.resumeReading() })
    }

    func testAResumeArrivingAfterTheConsumerFellBehindAgainLeavesTheNewPause() {
        let flow = Flow()
        overflow(through: flow)
        XCTAssertTrue(flow.pauses.isPaused)

        // The consumer catches up (its resume sets off), then falls behind again before the resume lands.
        receipts[0].consumed()
        overflow(through: flow)
        flow.resumesArrive()

        XCTAssertTrue(flow.pauses.isPaused, "the connection reads on while the consumer is behind")
        receipts[1].consumed()
        flow.resumesArrive()
        XCTAssertFalse(flow.pauses.isPaused)
    }

    func testAReconnectionIsHeldBackWhileTheConsumerIsStillBehind() {
        let first = Flow()
        overflow(through: first)
        XCTAssertTrue(first.pauses.isPaused)

        // The connection ends and the stream reconnects, the consumer still behind.
        delivery.connectionOpened()
        let second = Flow()
        overflow(through: second, size: 1)

        XCTAssertTrue(second.pauses.isPaused, "the new connection is not held back")
        receipts[0].consumed()
        receipts[1].consumed()
        second.resumesArrive()
        XCTAssertFalse(second.pauses.isPaused)
    }

    /// Events with empty data, arriving without end, take memory all the same.
    func testElementsWithoutBytesAreHeldBackToo() {
        let flow = Flow()
        for _ in 0..<10_000 {
            delivery.deliver([(1, 0)], pause: { flow.pauseReading() }, resume: { flow.resumeReading() })
        }
        XCTAssertTrue(flow.pauses.isPaused)
    }

    func testAClosedDeliveryLiftsItsPause() {
        let flow = Flow()
        overflow(through: flow)
        delivery.close()
        flow.resumesArrive()
        XCTAssertFalse(flow.pauses.isPaused)
        XCTAssertFalse(delivery.isOpen)
    }
}
