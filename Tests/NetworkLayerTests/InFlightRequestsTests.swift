import Foundation
import XCTest

@testable import NetworkLayer

/// Identical requests share one send: every waiter hears once, a waiter that leaves never, and the send
/// is cancelled when the last waiter leaves.
final class InFlightRequestsTests: XCTestCase {
    private final class Send: Sendable {
        let finish = Locked<(@Sendable (Int) -> Void)?>(nil)
        let starts = Locked(0)
        let cancels = Locked(0)

        func start(_ finish: @escaping @Sendable (Int) -> Void) -> @Sendable () -> Void {
            starts.withLock { $0 += 1 }
            self.finish.withLock { $0 = finish }
            return { self.cancels.withLock { $0 += 1 } }
        }
    }

    func testWaitersShareOneSendAndEachHearsOnce() {
        let flights = InFlightRequests<String, Int>()
        let send = Send()
        let heard = Locked<[Int]>([])
        for _ in 0..<3 {
            _ = flights.join(
                "a", completion: { value, _ in heard.withLock { $0.append(value) } }, start: send.start)
        }
        XCTAssertEqual(send.starts.withLock { $0 }, 1)
        send.finish.withLock { $0 }?(7)
        XCTAssertEqual(heard.withLock { $0 }, [7, 7, 7])
        XCTAssertEqual(flights.count, 0)
        XCTAssertEqual(send.cancels.withLock { $0 }, 0)
    }

    func testWaitersHearInTheOrderTheyJoined() {
        let flights = InFlightRequests<String, Int>()
        let send = Send()
        let heard = Locked<[Int]>([])
        for index in 0..<20 {
            _ = flights.join(
                "a", completion: { _, _ in heard.withLock { $0.append(index) } }, start: send.start)
        }
        send.finish.withLock { $0 }?(0)
        XCTAssertEqual(heard.withLock { $0 }, Array(0..<20))
    }

    func testALeavingWaiterHearsNothingAndTheLastCancels() {
        let flights = InFlightRequests<String, Int>()
        let send = Send()
        let heard = Locked<[String]>([])
        let leaveA = flights.join(
            "k", completion: { _, _ in heard.withLock { $0.append("a") } }, start: send.start)
        let leaveB = flights.join(
            "k", completion: { _, _ in heard.withLock { $0.append("b") } }, start: send.start)
        leaveA()
        XCTAssertEqual(send.cancels.withLock { $0 }, 0, "one waiter is left")
        leaveB()
        XCTAssertEqual(send.cancels.withLock { $0 }, 1)
        XCTAssertEqual(flights.count, 0)
        send.finish.withLock { $0 }?(1)
        XCTAssertEqual(heard.withLock { $0 }, [])
    }

    /// A waiter that leaves is told what the starter's `sofar` says then: the last, once the send is
    /// cancelled; a joiner's own `sofar` is not the flight's.
    func testALeavingWaiterIsToldTheStartersSoFarAfterTheCancel() {
        let flights = InFlightRequests<String, Int>()
        let send = Send()
        let progress = Locked(1)
        let told = Locked<[Int?]>([])
        let leaveA = flights.join(
            "k", completion: { _, _ in }, onLeave: { sofar in told.withLock { $0.append(sofar) } },
            sofar: { progress.withLock { $0 } },
            start: { finish in
                let cancel = send.start(finish)
                return {
                    progress.withLock { $0 = 3 }
                    cancel()
                }
            })
        let leaveB = flights.join(
            "k", completion: { _, _ in }, onLeave: { sofar in told.withLock { $0.append(sofar) } },
            sofar: { 99 }, start: send.start)
        leaveA()
        leaveB()
        XCTAssertEqual(told.withLock { $0 }, [1, 3])
        XCTAssertEqual(send.cancels.withLock { $0 }, 1)
    }

    func testASendThatFinishesInsideItsStartIsNotCancelled() {
        let flights = InFlightRequests<String, Int>()
        let cancels = Locked(0)
        let heard = Locked<[Int]>([])
        let start: (@escaping @Sendable (Int) -> Void) -> @Sendable () -> Void = { finish in
            finish(5)
            return { cancels.withLock { $0 += 1 } }
        }
        let leave = flights.join(
            "k", completion: { value, _ in heard.withLock { $0.append(value) } }, start: start)
        leave()
        XCTAssertEqual(heard.withLock { $0 }, [5])
        XCTAssertEqual(cancels.withLock { $0 }, 0)
        XCTAssertEqual(flights.count, 0)
    }
}
