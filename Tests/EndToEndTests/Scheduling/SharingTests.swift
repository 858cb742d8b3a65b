import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Identical GETs in flight at once share one network request (issue 34): each caller its own outcome,
/// cancel and time limit; the server sees one request.
final class SharingTests: XCTestCase {
    private let queue = DispatchQueue(label: "sharing.callbacks")

    private func layer(_ server: MockServer, clock: TestClock? = nil, retryPolicy: RetryPolicy = .none)
        -> NetworkLayer
    {
        NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue,
            retryPolicy: retryPolicy, cache: nil)
    }

    private func request(_ headers: [String: String] = [:]) -> NetworkRequest<[String]> {
        NetworkRequest<[String]>(urlString: "me", headers: headers)
    }

    /// Sends `count` identical requests on `network`, each caller's outcome going to `outcomes`.
    @discardableResult
    private func send(_ count: Int, on network: NetworkLayer, to outcomes: CallerOutcomes<[String]>)
        -> [NetworkTask]
    {
        (0..<count).map { index in
            let (success, failure) = outcomes.handlers(index)
            return network.send(request(), successHandler: success, errorHandler: failure)
        }
    }

    func testFiftyIdenticalUncachedGETsReachTheServerOnceAndEveryHandlerRunsOnce() throws {
        let gated = try GatedServer(in: self) { _ in try .json(["ann"]) }
        let network = layer(gated.server)
        let outcomes = CallerOutcomes<[String]>(expectation(description: "50 outcomes"), count: 50)
        send(50, on: network, to: outcomes)
        XCTAssertNotNil(gated.server.takeRequest(timeout: 5))
        gated.open()
        wait(for: [outcomes.expectation], timeout: 10)
        XCTAssertEqual(outcomes.counts, Array(repeating: 1, count: 50))
        XCTAssertEqual(
            outcomes.all.values.compactMap { try? $0.first?.get() }, Array(repeating: ["ann"], count: 50))
        XCTAssertEqual(gated.server.requestCount, 1)
        XCTAssertEqual(network.scheduledCount, 0)
    }

    func testCancellingFortyNineAtRandomMomentsLeavesTheFiftiethIntact() throws {
        let gated = try GatedServer(in: self) { _ in try .json(["ann"]) }
        let network = layer(gated.server)
        let outcomes = CallerOutcomes<[String]>(expectation(description: "50 outcomes"), count: 50)
        let tasks = send(50, on: network, to: outcomes)
        XCTAssertNotNil(gated.server.takeRequest(timeout: 5))
        let survivor = Int.random(in: 0..<50)
        DispatchQueue.concurrentPerform(iterations: 50) { index in
            if index != survivor { tasks[index].cancel() }
        }
        gated.open()
        wait(for: [outcomes.expectation], timeout: 10)
        XCTAssertEqual(outcomes.counts, Array(repeating: 1, count: 50))
        for (index, results) in outcomes.all {
            if index == survivor {
                XCTAssertEqual(try results[0].get(), ["ann"])
            } else {
                XCTAssertEqual(results.first.flatMap { try? $0.get() }, nil)
            }
        }
        XCTAssertEqual(gated.server.requestCount, 1)
    }

    func testCancellingEveryCallerCancelsTheNetworkRequest() throws {
        let gated = try GatedServer(in: self) { _ in try .json(["ann"]) }
        defer { gated.open() }
        let network = layer(gated.server)
        let outcomes = CallerOutcomes<[String]>(expectation(description: "3 outcomes"), count: 3)
        let tasks = send(3, on: network, to: outcomes)
        XCTAssertNotNil(gated.server.takeRequest(timeout: 5))
        tasks[0].cancel()
        tasks[1].cancel()
        XCTAssertEqual(network.scheduledCount, 1, "one caller still waits: the request goes on")
        tasks[2].cancel()
        wait(for: [outcomes.expectation], timeout: 10)
        XCTAssertEqual(network.scheduledCount, 0, "the last caller's cancel ended the shared request")
        XCTAssertEqual(outcomes.counts, [1, 1, 1])
    }

    func testCancelAllDuringTheSharedRequestEndsAllFiftyOnce() throws {
        let gated = try GatedServer(in: self) { _ in try .json(["ann"]) }
        defer { gated.open() }
        let network = layer(gated.server)
        let outcomes = CallerOutcomes<[String]>(expectation(description: "50 outcomes"), count: 50)
        send(50, on: network, to: outcomes)
        XCTAssertNotNil(gated.server.takeRequest(timeout: 5))
        network.cancelAll()
        wait(for: [outcomes.expectation], timeout: 10)
        XCTAssertEqual(outcomes.counts, Array(repeating: 1, count: 50))
        let cancelled = outcomes.all.values.filter {
            if case .failure(.cancelled) = $0[0] { return true }
            return false
        }
        XCTAssertEqual(cancelled.count, 50)
        XCTAssertEqual(network.scheduledCount, 0)
    }

    func testTwoAuthorizationValuesReachTheServerTwice() throws {
        let gated = try GatedServer(in: self) { _ in try .json(["ann"]) }
        let network = layer(gated.server)
        let outcomes = CallerOutcomes<[String]>(expectation(description: "50 outcomes"), count: 50)
        for index in 0..<50 {
            let (success, failure) = outcomes.handlers(index)
            let token = index.isMultiple(of: 2) ? "Bearer a" : "Bearer b"
            network.send(request(["Authorization": token]), successHandler: success, errorHandler: failure)
        }
        XCTAssertNotNil(gated.server.takeRequest(timeout: 5))
        XCTAssertNotNil(gated.server.takeRequest(timeout: 5))
        gated.open()
        wait(for: [outcomes.expectation], timeout: 10)
        XCTAssertEqual(gated.server.requestCount, 2)
        XCTAssertEqual(
            Set(gated.server.recordedRequests.compactMap { $0.header("Authorization") }),
            ["Bearer a", "Bearer b"])
    }

    func testTracingIdsDoNotSplitAndOtherTypesDecodeTheSameBytes() throws {
        let gated = try GatedServer(in: self) { _ in try .json(["ann"]) }
        let network = layer(gated.server)
        let strings = CallerOutcomes<[String]>(expectation(description: "strings"), count: 1)
        let bytes = CallerOutcomes<Data>(expectation(description: "bytes"), count: 1)
        let (success, failure) = strings.handlers(0)
        network.send(request(["traceparent": "00-a-b-01"]), successHandler: success, errorHandler: failure)
        let (dataSuccess, dataFailure) = bytes.handlers(0)
        network.send(
            NetworkRequest<Data>(urlString: "me", headers: ["X-Request-ID": "42"]),
            successHandler: dataSuccess,
            errorHandler: dataFailure)
        XCTAssertNotNil(gated.server.takeRequest(timeout: 5))
        gated.open()
        wait(for: [strings.expectation, bytes.expectation], timeout: 10)
        XCTAssertEqual(gated.server.requestCount, 1)
        XCTAssertEqual(try strings.all[0]?[0].get(), ["ann"])
        XCTAssertEqual(try bytes.all[0]?[0].get(), Data(#"["ann"]"#.utf8))
    }

    func testSharingOffForARequestSendsItOnItsOwn() throws {
        let gated = try GatedServer(in: self) { _ in try .json(["ann"]) }
        let network = layer(gated.server)
        let outcomes = CallerOutcomes<[String]>(expectation(description: "2 outcomes"), count: 2)
        var alone = request()
        alone.scheduling = .disabled
        for (index, request) in [request(), alone].enumerated() {
            let (success, failure) = outcomes.handlers(index)
            network.send(request, successHandler: success, errorHandler: failure)
        }
        XCTAssertNotNil(gated.server.takeRequest(timeout: 5))
        XCTAssertNotNil(gated.server.takeRequest(timeout: 5))
        gated.open()
        wait(for: [outcomes.expectation], timeout: 10)
        XCTAssertEqual(gated.server.requestCount, 2)
    }

    func testACallerWithItsOwnTimeoutTimesOutWithoutEndingTheOthers() throws {
        let gated = try GatedServer(in: self) { _ in try .json(["ann"]) }
        let clock = TestClock()
        let network = layer(gated.server, clock: clock)
        let outcomes = CallerOutcomes<[String]>(expectation(description: "3 outcomes"), count: 3)
        for index in 0..<3 {
            var request = request()
            if index == 0 { request.resourceTimeout = 1 }
            let (success, failure) = outcomes.handlers(index)
            network.send(request, successHandler: success, errorHandler: failure)
        }
        XCTAssertNotNil(gated.server.takeRequest(timeout: 5))
        clock.advance(by: 1)
        XCTAssertTrue(clock.wait { _ in outcomes.counts.first == 1 })
        gated.open()
        wait(for: [outcomes.expectation], timeout: 10)
        guard case .failure(.timedOut) = outcomes.all[0]?[0] else {
            return XCTFail("\(String(describing: outcomes.all[0]))")
        }
        XCTAssertEqual(try outcomes.all[1]?[0].get(), ["ann"])
        XCTAssertEqual(try outcomes.all[2]?[0].get(), ["ann"])
        XCTAssertEqual(gated.server.requestCount, 1)
    }

    /// Each caller runs its own retry policy (sharing sits below the policies, issue 44); their retries,
    /// identical and in flight at once, share again: ten callers still make one retry.
    func testIdenticalRetriesInFlightAtOnceShareAgain() throws {
        let gated = try GatedServer(in: self) { request in
            request.sequenceNumber == 0
                ? MockResponse(status: 503, headers: ["Retry-After": "1"]) : try .json(["ann"])
        }
        let clock = TestClock()
        let network = layer(
            gated.server, clock: clock, retryPolicy: RetryPolicy(maximumAttempts: 2, maximumDelay: 5))
        let outcomes = CallerOutcomes<[String]>(expectation(description: "10 outcomes"), count: 10)
        send(10, on: network, to: outcomes)
        XCTAssertTrue(clock.wait { _ in network.sharingCallerCount == 10 }, "every caller joined")
        gated.releaseOne()  // the 503
        XCTAssertTrue(
            clock.wait { $0.pendingDeadlines.filter { abs($0 - 1) < 0.001 }.count == 10 },
            "each caller's own retry wait")
        clock.advance(by: 1)
        XCTAssertTrue(
            clock.wait { _ in gated.server.requestCount == 2 && network.sharingCallerCount == 10 },
            "every caller's retry joined one")
        gated.open()
        wait(for: [outcomes.expectation], timeout: 10)
        XCTAssertEqual(gated.server.requestCount, 2, "one first attempt and one retry for all ten callers")
        XCTAssertEqual(outcomes.all.values.compactMap { try? $0[0].get() }.count, 10)
    }

    func testWhenEveryCallerLeavesDuringARetryWaitNothingIsSentAgain() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 503, headers: ["Retry-After": "1"]))
        let clock = TestClock()
        let network = layer(
            server, clock: clock, retryPolicy: RetryPolicy(maximumAttempts: 2, maximumDelay: 5))
        let outcomes = CallerOutcomes<[String]>(expectation(description: "2 outcomes"), count: 2)
        let tasks = send(2, on: network, to: outcomes)
        XCTAssertTrue(clock.wait { $0.pendingDeadlines.contains { abs($0 - 1) < 0.001 } }, "the retry's wait")
        for task in tasks { task.cancel() }
        wait(for: [outcomes.expectation], timeout: 10)
        XCTAssertEqual(network.scheduledCount, 0)
        clock.advance(by: 1)
        XCTAssertEqual(server.requestCount, 1, "no retry for nobody")
    }
}
