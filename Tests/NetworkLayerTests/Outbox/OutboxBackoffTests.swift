import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

/// The outbox's waits between attempts: the one backoff, on the call's retry wait and the layer's clock.
final class OutboxBackoffTests: XCTestCase {
    private func outbox(_ server: MockServer, clock: TestClock, options: OutboxOptions) throws -> Outbox {
        let layer = NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 10)
        return try Outbox(directory: makeOutboxFolder(), layer: layer, options: options)
    }

    func testTheWaitsAreTheUpperHalfOfADoublingBackoff() throws {
        let clock = TestClock()
        let server = try startedServer()
        for _ in 0..<2 { server.enqueue(MockResponse(status: 500, text: "oops")) }
        _ = server.serveIdempotently(created)
        var options = OutboxOptions()
        options.initialDelay = 4
        let outbox = try outbox(server, clock: clock, options: options)
        let log = OutboxEventLog(outbox)
        try outbox.enqueue(indexedPost(0))

        XCTAssertTrue(clock.wait { $0.waits.count == 1 }, "\(clock.waits)")
        XCTAssertTrue((2...4).contains(clock.waits[0]), "\(clock.waits)")
        clock.advance(by: clock.waits[0])
        XCTAssertTrue(clock.wait { $0.waits.count == 2 }, "\(clock.waits)")
        XCTAssertTrue((4...8).contains(clock.waits[1]), "\(clock.waits)")
        clock.advance(by: clock.waits[1])
        XCTAssertTrue(log.waitForDeliveries(1))
        XCTAssertEqual(server.requestCount, 3)
        XCTAssertEqual(Set(server.recordedRequests.map { $0.header("Idempotency-Key") }).count, 1)
    }

    func testAnEndlessBackoffWaitsForAFlushInsteadOfRetryingAtOnce() throws {
        let clock = TestClock()
        let server = try startedServer()
        server.enqueue(MockResponse(status: 500, text: "oops"))
        _ = server.serveIdempotently(created)
        var options = OutboxOptions()
        (options.initialDelay, options.maximumDelay) = (.infinity, .infinity)
        let outbox = try outbox(server, clock: clock, options: options)
        let log = OutboxEventLog(outbox)
        try outbox.enqueue(indexedPost(0))

        XCTAssertTrue(clock.wait { _ in outbox.state.withLock { $0.failures == 1 } })
        outbox.queue.sync {}
        XCTAssertEqual(clock.waits, [], "no timer for an endless wait")
        XCTAssertNil(outbox.state.withLock { $0.inFlight })
        XCTAssertEqual(server.requestCount, 1, "not sent again at once")

        outbox.flush()
        XCTAssertTrue(log.waitForDeliveries(1))
        XCTAssertEqual(server.requestCount, 2)
    }
}
