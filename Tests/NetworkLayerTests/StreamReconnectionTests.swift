import Foundation
import XCTest

@testable import NetworkLayer

/// Which connections of a server-sent event stream end a run of reconnections, and how long each
/// reconnection waits.
final class StreamReconnectionTests: XCTestCase {
    private let second: UInt64 = 1_000_000_000

    /// A connection that had an event and lasted a second is worth keeping: the run starts afresh.
    func testAConnectionWithEventsThatLastedEndsTheRun() {
        let state = StreamState(clock: SystemClock())
        for start in 0..<3 {
            state.connectionOpened(at: UInt64(start) * 10 * second)
            state.record(lastEventID: "", retry: nil, events: 1)
            let claim = state.claimReconnect(
                maximum: 1, keptAfter: 1, now: (UInt64(start) * 10 + 2) * second)
            XCTAssertEqual(claim, .granted(inARow: 1))
        }
        XCTAssertEqual(state.reconnectCount, 3)
    }

    /// Events alone don't end the run when the connection ended early: the storm of a server that
    /// closes every stream after an event runs out, and says so.
    func testAShortConnectionWithEventsCountsAsFailed() {
        let state = StreamState(clock: SystemClock())
        var claims: [StreamState.ReconnectClaim] = []
        for start in 0..<4 {
            state.connectionOpened(at: UInt64(start) * second)
            state.record(lastEventID: "", retry: 0, events: 1)
            claims.append(state.claimReconnect(maximum: 3, keptAfter: 1, now: UInt64(start) * second + 1_000))
        }
        XCTAssertEqual(
            claims, [.granted(inARow: 1), .granted(inARow: 2), .granted(inARow: 3), .exhausted(storm: true)])
    }

    /// Connections that never opened, or had no event, run out with the last connection's error.
    func testARunWithoutEventsIsNoStorm() {
        let state = StreamState(clock: SystemClock())
        XCTAssertEqual(state.claimReconnect(maximum: 1, keptAfter: 1), .granted(inARow: 1))
        state.connectionOpened(at: 0)
        XCTAssertEqual(
            state.claimReconnect(maximum: 1, keptAfter: 1, now: 5 * second), .exhausted(storm: false))
    }

    /// No reconnection allowed at all is no storm, whatever the one connection did.
    func testNoReconnectsAllowedIsNoStorm() {
        let state = StreamState(clock: SystemClock())
        state.connectionOpened(at: 0)
        state.record(lastEventID: "", retry: nil, events: 1)
        XCTAssertEqual(state.claimReconnect(maximum: 0, keptAfter: 1, now: 1), .exhausted(storm: false))
    }

    func testTheWaitHasAFloorAndDoublesUpToTheMaximum() {
        let state = StreamState(clock: SystemClock())
        state.record(lastEventID: "", retry: 0)
        let reconnection = StreamReconnection(
            state: state, options: ServerSentEventsOptions(minimumReconnectionDelay: 0.5), maximumDelay: 30,
            reconnects: true)

        XCTAssertEqual((1...8).map { reconnection.delay(inARow: $0) }, [0.5, 1, 2, 4, 8, 16, 30, 30])
        XCTAssertEqual(reconnection.delay(inARow: .max), 30)
    }

    func testALongerRetryIsKeptAndAFloorThatIsNoFloorIsAMillisecond() {
        let state = StreamState(clock: SystemClock())
        state.record(lastEventID: "", retry: 2)
        let options = { (floor: TimeInterval) in ServerSentEventsOptions(minimumReconnectionDelay: floor) }
        let keeping = StreamReconnection(
            state: state, options: options(0.5), maximumDelay: 30, reconnects: true)
        XCTAssertEqual(keeping.delay(inARow: 1), 2)

        let idle = StreamState(clock: SystemClock())
        idle.record(lastEventID: "", retry: 0)
        for floor in [0, -1, .nan] {
            let reconnection = StreamReconnection(
                state: idle, options: options(floor), maximumDelay: 30, reconnects: true)
            XCTAssertEqual(reconnection.delay(inARow: 1), 0.001, "\(floor)")
        }
    }
}
