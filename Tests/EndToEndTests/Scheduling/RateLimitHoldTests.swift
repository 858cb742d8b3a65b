import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Holds a server can't abuse (issue 45): a hold has a ceiling, a reset that can only be milliseconds is
/// read so, an app can lift a hold, a request the user waits for may probe a long hold, and the origin
/// that answered is the one held.
final class RateLimitHoldTests: XCTestCase {
    private let queue = DispatchQueue(label: "rate-limit-holds.callbacks")
    /// A fixed start, so a reset given as a Unix time is exact.
    private static let start = Date(timeIntervalSince1970: 1_700_000_000)

    private func layer(
        _ server: MockServer, clock: TestClock, scheduling: RequestScheduling = .default
    ) -> NetworkLayer {
        NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue,
            cache: nil, scheduling: scheduling)
    }

    /// Sends GET `path` and returns its recorder.
    @discardableResult
    private func get(
        _ network: NetworkLayer, _ path: String, priority: RequestPriority = .default,
        resourceTimeout: TimeInterval? = nil
    ) -> OutcomeRecorder<Data> {
        let recorder = OutcomeRecorder<Data>(expectation(description: path))
        var request = NetworkRequest<Data>(urlString: path)
        request.priority = priority
        request.resourceTimeout = resourceTimeout
        network.send(request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        return recorder
    }

    /// How long after the clock's now a request that can wait 1 s is told the origin opens: the hold.
    private func hold(
        _ network: NetworkLayer, _ clock: TestClock, file: StaticString = #filePath, line: UInt = #line
    ) -> TimeInterval? {
        let hurried = get(network, "hurried", resourceTimeout: 1)
        wait(for: [hurried.expectation], timeout: 10)
        guard case .failure(.rateLimited(let until)) = hurried.results.first else {
            XCTFail("expected rateLimited, got \(hurried.results)", file: file, line: line)
            return nil
        }
        return until.timeIntervalSince(clock.date)
    }

    /// The hold the layer keeps after the first reply is `reply`.
    private func hold(
        after reply: MockResponse, scheduling: RequestScheduling = .default, file: StaticString = #filePath,
        line: UInt = #line
    ) throws -> TimeInterval? {
        let server = try MockServer.started(in: self)
        server.enqueue(reply)
        let clock = TestClock(startingAt: Self.start)
        let network = layer(server, clock: clock, scheduling: scheduling)
        wait(for: [get(network, "first").expectation], timeout: 10)
        defer {
            XCTAssertEqual(server.requestCount, 1, "the held request sent nothing", file: file, line: line)
        }
        return hold(network, clock, file: file, line: line)
    }

    // MARK: - The ceiling

    func testByDefaultAHoldLastsAtMostAnHourWhateverTheServerSays() throws {
        let replies = [
            MockResponse(status: 429, headers: ["Retry-After": "1000000000"]),
            MockResponse(status: 503, headers: ["Retry-After": "Fri, 31 Dec 9999 23:59:59 GMT"]),
            MockResponse(status: 200, headers: ["RateLimit": #""default";r=0;t=1000000000"#]),
            MockResponse(
                status: 200, headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "99999999999"]),
        ]
        for reply in replies {
            XCTAssertEqual(try XCTUnwrap(hold(after: reply)), 3_600, accuracy: 0.001, "\(reply.headers)")
        }
    }

    func testTheCeilingIsTheLayersToChoose() throws {
        let scheduling = RequestScheduling(maximumRateLimitWait: 120)
        let held = try hold(
            after: MockResponse(status: 429, headers: ["Retry-After": "1000000000"]), scheduling: scheduling)
        XCTAssertEqual(try XCTUnwrap(held), 120, accuracy: 0.001)
        let shorter = try hold(
            after: MockResponse(status: 429, headers: ["Retry-After": "90"]), scheduling: scheduling)
        XCTAssertEqual(try XCTUnwrap(shorter), 90, accuracy: 0.001, "a shorter pause is kept as given")
    }

    func testAResetThatCanOnlyBeMillisecondsIsReadAsMilliseconds() throws {
        let inAMinute = Int64(Self.start.timeIntervalSince1970 * 1_000) + 60_000
        let held = try hold(
            after: MockResponse(
                status: 429,
                headers: ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": String(inAMinute)]))
        XCTAssertEqual(try XCTUnwrap(held), 60, accuracy: 0.001)
    }

    // MARK: - Lifting

    func testAnAppLiftsOneOriginsHoldAndItsWaitingRequestsGo() throws {
        let held = try MockServer.started(in: self)
        held.enqueue(MockResponse(status: 429, headers: ["Retry-After": "600"]))
        held.handler = { _ in MockResponse(status: 200, text: "ok") }
        let other = try MockServer.started(in: self)
        other.enqueue(MockResponse(status: 429, headers: ["Retry-After": "600"]))
        let clock = TestClock(startingAt: Self.start)
        let network = layer(held, clock: clock)
        wait(for: [get(network, "first").expectation], timeout: 10)
        wait(
            for: [get(network, other.baseURL.appendingPathComponent("first").absoluteString).expectation],
            timeout: 10)
        let waiting = get(network, "waiting", resourceTimeout: 1_000)
        XCTAssertTrue(clock.wait { $0.pendingDeadlines.contains { abs($0 - 600) < 0.001 } }, "it waits")

        network.liftRateLimit(for: held.baseURL)

        wait(for: [waiting.expectation], timeout: 10)
        XCTAssertEqual(waiting.results.first?.value, Data("ok".utf8))
        XCTAssertEqual(clock.elapsed, 0)
        let stillHeld = get(
            network, other.baseURL.appendingPathComponent("x").absoluteString, resourceTimeout: 1)
        wait(for: [stillHeld.expectation], timeout: 10)
        guard case .failure(.rateLimited)? = stillHeld.results.first else {
            return XCTFail("the other origin stays held: \(stillHeld.results)")
        }
    }

    func testAnAppLiftsEveryHold() throws {
        let servers = try (0..<2).map { _ in try MockServer.started(in: self) }
        let clock = TestClock(startingAt: Self.start)
        let network = layer(servers[0], clock: clock)
        for server in servers {
            server.enqueue(MockResponse(status: 429, headers: ["Retry-After": "600"]))
            server.handler = { _ in MockResponse(status: 200, text: "ok") }
            let url = server.baseURL.appendingPathComponent("first").absoluteString
            wait(for: [get(network, url).expectation], timeout: 10)
        }

        network.liftAllRateLimits()

        for server in servers {
            let url = server.baseURL.appendingPathComponent("after").absoluteString
            let after = get(network, url, resourceTimeout: 1)
            wait(for: [after.expectation], timeout: 10)
            XCTAssertEqual(after.results.first?.value, Data("ok".utf8))
        }
    }

    // MARK: - Probes

    func testDuringALongHoldARequestTheUserWaitsForProbesEveryThirtySecondsAndASuccessLiftsIt() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 429, headers: ["Retry-After": "3600"]))
        server.enqueue(MockResponse(status: 429, headers: ["Retry-After": "3600"]))
        server.handler = { _ in MockResponse(status: 200, text: "ok") }
        let clock = TestClock(startingAt: Self.start)
        let network = layer(server, clock: clock)
        wait(for: [get(network, "first").expectation], timeout: 10)

        // Within 30 s of the server's reply, nobody probes.
        let tooSoon = get(network, "tap/1", priority: .userInitiated, resourceTimeout: 10)
        wait(for: [tooSoon.expectation], timeout: 10)
        XCTAssertEqual(server.requestCount, 1, String(describing: tooSoon.results))
        clock.advance(by: 30)
        // A request nobody waits for doesn't probe.
        let background = get(network, "background", resourceTimeout: 10)
        wait(for: [background.expectation], timeout: 10)
        XCTAssertEqual(server.requestCount, 1, String(describing: background.results))
        // The first the user waits for goes: the server still says no, and the hold goes on.
        let refused = get(network, "tap/2", priority: .userInitiated, resourceTimeout: 10)
        wait(for: [refused.expectation], timeout: 10)
        XCTAssertEqual(refused.results.first?.error?.statusCode, 429)
        XCTAssertEqual(server.requestCount, 2)
        clock.advance(by: 29)
        let between = get(network, "tap/3", priority: .userInitiated, resourceTimeout: 10)
        wait(for: [between.expectation], timeout: 10)
        XCTAssertEqual(server.requestCount, 2, "at most one probe every 30 s")
        clock.advance(by: 1)
        // 30 s later another probe goes, and its success lifts the hold for every request.
        let probe = get(network, "tap/4", priority: .userInitiated, resourceTimeout: 10)
        wait(for: [probe.expectation], timeout: 10)
        XCTAssertEqual(probe.results.first?.value, Data("ok".utf8))
        let after = get(network, "after", resourceTimeout: 10)
        wait(for: [after.expectation], timeout: 10)
        XCTAssertEqual(after.results.first?.value, Data("ok".utf8))
        XCTAssertEqual(server.requestCount, 4)
    }

    func testAHoldOfThirtySecondsOrLessIsWaitedOutWithoutAProbe() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 429, headers: ["Retry-After": "20"]))
        server.handler = { _ in MockResponse(status: 200, text: "ok") }
        let clock = TestClock(startingAt: Self.start)
        let network = layer(server, clock: clock)
        wait(for: [get(network, "first").expectation], timeout: 10)
        clock.advance(by: 10)
        let tap = get(network, "tap", priority: .userInitiated)
        XCTAssertTrue(clock.wait { $0.pendingDeadlines.contains { abs($0 - 10) < 0.001 } })
        XCTAssertEqual(server.requestCount, 1)
        clock.advance(by: 10)
        wait(for: [tap.expectation], timeout: 10)
        XCTAssertEqual(tap.results.first?.value, Data("ok".utf8))
    }

    // MARK: - The answering origin

    func testARedirectTargetsRateLimitHoldsTheTargetNotTheOriginRedirected() throws {
        try assertTheTargetIsHeld(scheduling: .default)
    }

    /// The same through the scheduler's queue: a budget counts every request.
    func testARedirectTargetsRateLimitHoldsTheTargetUnderABudgetToo() throws {
        try assertTheTargetIsHeld(scheduling: RequestScheduling(maximumRequestsPerOrigin: 4))
    }

    /// Origin 1 redirects to origin 2, which answers `429 Retry-After: 120`.
    private func assertTheTargetIsHeld(scheduling: RequestScheduling) throws {
        let first = try MockServer.started(in: self)
        let second = try MockServer.started(in: self)
        first.enqueue(
            MockResponse(status: 302, headers: ["Location": try XCTUnwrap(second.url("/x")).absoluteString]))
        first.handler = { _ in MockResponse(status: 200, text: "first") }
        second.enqueue(MockResponse(status: 429, headers: ["Retry-After": "120"]))
        second.handler = { _ in MockResponse(status: 200, text: "second") }
        let clock = TestClock(startingAt: Self.start)
        let network = layer(first, clock: clock, scheduling: scheduling)
        let redirected = get(network, "moved")
        wait(for: [redirected.expectation], timeout: 10)
        XCTAssertEqual(redirected.results.first?.error?.statusCode, 429)

        let toFirst = get(network, "again", resourceTimeout: 10)
        wait(for: [toFirst.expectation], timeout: 10)
        XCTAssertEqual(toFirst.results.first?.value, Data("first".utf8), "origin 1 is not held")
        let toSecond = get(network, try XCTUnwrap(second.url("/y")).absoluteString, resourceTimeout: 10)
        wait(for: [toSecond.expectation], timeout: 10)
        guard case .failure(.rateLimited(let until))? = toSecond.results.first else {
            return XCTFail("origin 2 is held: \(toSecond.results)")
        }
        XCTAssertEqual(until.timeIntervalSince(clock.date), 120, accuracy: 0.001)
        XCTAssertEqual(second.requestCount, 1)
    }
}
