import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A server can't drive a stream into a reconnection loop: the wait has a floor whatever `retry:`
/// says, backs off while connections end early, and a run of such connections ends the stream.
final class ReconnectionStormTests: XCTestCase {
    /// Every connection gets `retry: 0`, one event and a close. Each connection had an event, which
    /// used to start the count of reconnections afresh: thousands of connections a second, for ever.
    func testAServerThatEndsEveryConnectionAfterOneEventGetsABoundedBackedOffRun() throws {
        let server = try MockServer.started(in: self)
        let arrivals = ConnectionArrivals()
        // Far above the run allowed: code that never stops reconnecting fails here rather than hang.
        let cap = 40
        server.handler = { _ in
            let count = arrivals.record()
            if count > cap { return MockResponse(status: 204) }
            return .serverSentEvents([ServerSentEvent(data: "tick", id: "\(count)", retry: 0)])
        }
        let recorder = EventRecorder()
        let network = NetworkLayer(baseURL: server.baseURL, monitors: [recorder])
        let finished = recorder.expectFinishes(1, self)
        let options = ServerSentEventsOptions(maximumReconnects: 4, minimumReconnectionDelay: 0.05)

        let recording = record(
            network, NetworkRequest(urlString: "feed"), as: .serverSentEvents, options: options,
            timeout: 20)
        wait(for: [finished], timeout: 5)

        guard case .failure(.tooManyReconnects(4)) = recording.outcome else {
            return XCTFail("\(String(describing: recording.outcome))")
        }
        XCTAssertEqual(
            recording.outcome?.error?.message,
            "The server kept ending the stream soon after it started; it stopped after 4 reconnections.")
        XCTAssertEqual(server.requestCount, 5, "one connection and 4 reconnections")
        XCTAssertEqual(recording.elements.count, 5)
        let delays = recorder.events.compactMap { event -> TimeInterval? in
            if case .retry(_, let delay, _) = event { return delay }
            return nil
        }
        XCTAssertEqual(delays, [0.05, 0.1, 0.2, 0.4], "the floor, then doubling")
        // The server saw the waits: a reconnection never comes sooner than its delay.
        for (gap, delay) in zip(arrivals.gaps, delays) {
            XCTAssertGreaterThanOrEqual(gap, delay - 0.002, "\(arrivals.gaps)")
        }
    }

    /// A retry policy whose longest wait is under the floor doesn't undercut it: the floor wins.
    func testARetryPolicyWithAShorterMaximumDelayKeepsTheFloor() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.serverSentEvents([ServerSentEvent(data: "a", id: "1", retry: 0)]))
        server.enqueue(MockResponse(status: 204))
        let recorder = EventRecorder()
        let network = NetworkLayer(
            baseURL: server.baseURL, retryPolicy: RetryPolicy(maximumDelay: 0), monitors: [recorder])
        let finished = recorder.expectFinishes(1, self)
        let options = ServerSentEventsOptions(maximumReconnects: .max, minimumReconnectionDelay: 0.05)

        let recording = record(
            network, NetworkRequest(urlString: "feed"), as: .serverSentEvents, options: options)
        wait(for: [finished], timeout: 5)

        XCTAssertEqual(try recording.outcome?.get().statusCode, 204)
        let delays = recorder.events.compactMap { event -> TimeInterval? in
            if case .retry(_, let delay, _) = event { return delay }
            return nil
        }
        XCTAssertEqual(delays, [0.05])
    }

    /// A server's `retry: 0` is raised to the floor, also when its connections are worth keeping.
    func testRetryZeroWaitsTheDefaultFloor() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(.serverSentEvents([ServerSentEvent(data: "a", id: "1", retry: 0)]))
        server.enqueue(MockResponse(status: 204))
        let recorder = EventRecorder()
        let network = NetworkLayer(baseURL: server.baseURL, monitors: [recorder])
        let finished = recorder.expectFinishes(1, self)

        let recording = record(network, NetworkRequest(urlString: "feed"), as: .serverSentEvents)
        wait(for: [finished], timeout: 5)

        XCTAssertEqual(try recording.outcome?.get().statusCode, 204)
        let delays = recorder.events.compactMap { event -> TimeInterval? in
            if case .retry(_, let delay, _) = event { return delay }
            return nil
        }
        XCTAssertEqual(delays, [ServerSentEventsOptions.default.minimumReconnectionDelay])
        XCTAssertEqual(ServerSentEventsOptions.default.minimumReconnectionDelay, 0.5)
    }
}

/// When each request reached a server handler.
private final class ConnectionArrivals: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [TimeInterval] = []

    /// Records an arrival now; returns how many there were, this one included.
    func record() -> Int {
        let now = ProcessInfo.processInfo.systemUptime
        return lock.withLock {
            times.append(now)
            return times.count
        }
    }

    /// The seconds between each arrival and the next.
    var gaps: [TimeInterval] {
        let times = lock.withLock { self.times }
        return zip(times.dropFirst(), times).map { $0 - $1 }
    }
}
