import Foundation
import XCTest

@testable import NetworkLayer

/// A transfer's lifecycle as a table: from each phase, what an event leads to and what the transfer must
/// do. No task, no session, no queue.
final class TransferLifecycleTests: XCTestCase {
    private typealias Lifecycle = TransferLifecycle
    private let timedOut = URLError(.timedOut)
    private let cancelled = URLError(.cancelled)

    /// A lifecycle brought to a phase by the events that lead there.
    private func lifecycle(_ phase: String) -> Lifecycle {
        var lifecycle = Lifecycle()
        switch phase {
        case "waiting": break
        case "running": lifecycle.began()
        case "holding":
            lifecycle.began()
            _ = lifecycle.accepted(needsBackPressure: true)
        case "restarting":
            lifecycle.began()
            _ = lifecycle.restart()
        case "stopped, no task":
            _ = lifecycle.stop(because: timedOut, sessionHoldsBack: false)
        case "stopped":
            lifecycle.began()
            _ = lifecycle.stop(because: timedOut, sessionHoldsBack: false)
        case "finished":
            lifecycle.began()
            _ = lifecycle.ended()
        default: XCTFail("no phase \(phase)")
        }
        return lifecycle
    }

    func testPhasesReachedByTheirEvents() {
        let expected: [(String, Lifecycle.Phase, holdsBackPressure: Bool)] = [
            ("waiting", .waiting, false),
            ("running", .running, false),
            ("holding", .running, true),
            ("restarting", .restarting, false),
            ("stopped, no task", .stopped(timedOut, hasTask: false), false),
            ("stopped", .stopped(timedOut, hasTask: true), false),
            ("finished", .finished, false),
        ]
        for (name, phase, holds) in expected {
            XCTAssertEqual(lifecycle(name).phase, phase, name)
            XCTAssertEqual(lifecycle(name).holdsBackPressure, holds, name)
        }
    }

    /// What each phase allows: begin a task, keep a deadline, take a head or body bytes, answer a
    /// redirect or challenge.
    func testWhatEachPhaseAllows() {
        // phase: canBegin, keepsDeadline, takesResponse, takesBody, isStopped
        let table: [(String, [Bool])] = [
            ("waiting", [true, true, false, true, false]),
            ("running", [false, true, true, true, false]),
            ("holding", [false, true, true, true, false]),
            ("restarting", [true, true, false, true, true]),
            ("stopped, no task", [false, false, false, false, true]),
            ("stopped", [false, false, false, false, true]),
            ("finished", [false, false, false, false, true]),
        ]
        for (name, row) in table {
            let state = lifecycle(name)
            XCTAssertEqual(
                [state.canBegin, state.keepsDeadline, state.takesResponse, state.takesBody, state.isStopped],
                row, name)
        }
    }

    /// A stop: nothing to cancel before the task or after the end; a quick cancel when nothing holds
    /// libcurl back; otherwise a cancel from elsewhere and delivery now, giving back this transfer's hold.
    func testStop() {
        let table: [(String, Bool, Lifecycle.Stop, Lifecycle.Phase)] = [
            ("waiting", false, .none, .stopped(cancelled, hasTask: false)),
            ("stopped, no task", false, .none, .stopped(timedOut, hasTask: false)),
            ("finished", true, .none, .finished),
            ("running", false, .cancel(resumesReading: false), .stopped(cancelled, hasTask: true)),
            (
                "running", true,
                .cancelElsewhereAndFinish(resumesReading: false, releasesBackPressure: false),
                .stopped(cancelled, hasTask: true)
            ),
            (
                "holding", true, .cancelElsewhereAndFinish(resumesReading: false, releasesBackPressure: true),
                .stopped(cancelled, hasTask: true)
            ),
            ("restarting", false, .cancel(resumesReading: false), .stopped(cancelled, hasTask: true)),
            // The first reason wins.
            ("stopped", false, .cancel(resumesReading: false), .stopped(timedOut, hasTask: true)),
        ]
        for (name, sessionHoldsBack, action, phase) in table {
            var state = lifecycle(name)
            XCTAssertEqual(state.stop(because: nil, sessionHoldsBack: sessionHoldsBack), action, name)
            XCTAssertEqual(state.phase, phase, name)
        }
    }

    /// The end of the task: delivered once, with the stop's reason; a restart starts over instead.
    func testEnd() {
        let table: [(String, Lifecycle.End)] = [
            ("running", .deliver(.init())),
            ("holding", .deliver(.init(releasesBackPressure: true))),
            ("stopped", .deliver(.init(stopReason: timedOut))),
            ("stopped, no task", .deliver(.init(stopReason: timedOut))),
            ("restarting", .startOver),
            ("finished", .ignore),
        ]
        for (name, end) in table {
            var state = lifecycle(name)
            XCTAssertEqual(state.ended(), end, name)
            XCTAssertEqual(state.ended(), end == .startOver ? .startOver : .ignore, "\(name), twice")
        }
    }

    func testARestartBeginsAgainOrDeliversWhatTheTaskReported() {
        var again = lifecycle("restarting")
        XCTAssertEqual(again.ended(), .startOver)
        again.began()
        XCTAssertEqual(again.phase, .running)

        var failed = lifecycle("restarting")
        XCTAssertEqual(failed.ended(), .startOver)
        XCTAssertEqual(failed.restartFailed(), .init())
        XCTAssertEqual(failed.phase, .finished)
    }

    func testARestartGivesBackItsHold() {
        var holding = lifecycle("holding")
        XCTAssertTrue(holding.restart())
        var running = lifecycle("running")
        XCTAssertFalse(running.restart())
    }

    /// One hold per transfer, taken only when the sink needs it.
    func testBackPressureIsHeldOnce() {
        var state = lifecycle("running")
        XCTAssertFalse(state.accepted(needsBackPressure: false))
        XCTAssertTrue(state.accepted(needsBackPressure: true))
        XCTAssertFalse(state.accepted(needsBackPressure: true))
        var stopped = lifecycle("stopped")
        XCTAssertFalse(stopped.accepted(needsBackPressure: true))
    }

    /// A declined challenge rides on the running task into its delivery.
    func testADeclinedChallengeIsDelivered() {
        var state = lifecycle("running")
        state.declineChallenge()
        XCTAssertEqual(state.ended(), .deliver(.init(declinedChallenge: true)))
    }

    /// Pauses need a task, are counted, and are lifted by a stop or the end (reading must then go on).
    func testPauses() {
        var waiting = lifecycle("waiting")
        XCTAssertFalse(waiting.pause(), "paused with no task")
        XCTAssertFalse(waiting.isPaused)

        var state = lifecycle("running")
        XCTAssertTrue(state.pause())
        XCTAssertFalse(state.pause(), "a second pause stops nothing new")
        XCTAssertFalse(state.resume(), "one pause is still asked for")
        XCTAssertTrue(state.isPaused)
        XCTAssertEqual(state.stop(because: nil, sessionHoldsBack: false), .cancel(resumesReading: true))
        XCTAssertFalse(state.isPaused)
        XCTAssertFalse(state.resume(), "a late resume lifts nothing")

        var ending = lifecycle("running")
        XCTAssertTrue(ending.pause())
        XCTAssertEqual(ending.ended(), .deliver(.init(resumesReading: true)))
        XCTAssertFalse(ending.pause(), "paused after the end")
    }

    func testAFailedPreparationStopsBeforeTheTask() {
        var state = lifecycle("waiting")
        state.failedToPrepare(timedOut)
        XCTAssertEqual(state.phase, .stopped(timedOut, hasTask: false))
        XCTAssertFalse(state.canBegin)
        var stopped = lifecycle("stopped, no task")
        stopped.failedToPrepare(URLError(.fileDoesNotExist))
        XCTAssertEqual(stopped.phase, .stopped(timedOut, hasTask: false), "the first reason wins")
    }
}
