import XCTest

@testable import NetworkLayer

/// The back-pressure rule a stream's delivery and a download's disk writer share: a pause past the limit,
/// one resume per pause, at half the limit or when the consumer ends, whichever comes first.
final class ConsumerBacklogTests: XCTestCase {
    private var backlog = ConsumerBacklog(limit: 100)
    private let resumes = Locked(0)

    private func add(_ bytes: Int) -> Bool {
        backlog.add(bytes) { [resumes] in resumes.withLock { $0 += 1 } }
    }

    func testPausesOncePastTheLimitAndResumesOnceAtHalf() {
        XCTAssertFalse(add(100), "at the limit, not past it")
        XCTAssertTrue(add(1))
        XCTAssertFalse(add(50), "a paused transfer is not paused again")
        XCTAssertNil(backlog.remove(100), "51 bytes behind: above half the limit")
        backlog.remove(1)?()
        XCTAssertNil(backlog.remove(50), "resumed already")
        XCTAssertEqual(resumes.withLock { $0 }, 1)
        XCTAssertTrue(add(101), "behind again: paused again")
    }

    func testAnEndedConsumerResumesItsTransferOnceAndNeverPausesAgain() {
        XCTAssertTrue(add(101))
        backlog.end()?()
        XCTAssertNil(backlog.remove(101), "the end's resume was the one")
        XCTAssertNil(backlog.end())
        XCTAssertFalse(add(1_000))
        XCTAssertTrue(backlog.isEnded)
        XCTAssertEqual(resumes.withLock { $0 }, 1)
    }

    func testADroppedResumeIsNotRunAgain() {
        XCTAssertTrue(add(101))
        backlog.resume = nil  // its connection ended
        XCTAssertNil(backlog.remove(101))
        XCTAssertTrue(add(101), "the next connection is paused in turn")
    }
}
