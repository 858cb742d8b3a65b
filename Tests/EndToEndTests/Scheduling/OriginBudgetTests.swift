import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A budget of requests in flight per origin, served by priority (issue 34).
final class OriginBudgetTests: XCTestCase {
    private let queue = DispatchQueue(label: "budget.callbacks")

    func testAUserInitiatedRequestOvertakesAHundredQueuedPrefetches() throws {
        let gated = try GatedServer(in: self) { _ in try .json(["x"]) }
        let network = NetworkLayer(
            baseURL: gated.server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue, cache: nil,
            scheduling: RequestScheduling(maximumRequestsPerOrigin: 4))
        let outcomes = CallerOutcomes<[String]>(expectation(description: "101 outcomes"), count: 101)
        for index in 0..<100 {
            var prefetch = NetworkRequest<[String]>(urlString: "thumbnails/\(index)")
            prefetch.priority = .prefetch
            let (success, failure) = outcomes.handlers(index)
            network.send(prefetch, successHandler: success, errorHandler: failure)
        }
        for _ in 0..<4 { XCTAssertNotNil(gated.server.takeRequest(timeout: 5)) }
        var tap = NetworkRequest<[String]>(urlString: "article")
        tap.priority = .userInitiated
        let (success, failure) = outcomes.handlers(100)
        network.send(tap, successHandler: success, errorHandler: failure)
        XCTAssertEqual(gated.server.requestCount, 4, "4 in flight, 97 waiting")
        // One slot frees: the tap takes it, ahead of the 96 prefetches queued before it.
        gated.releaseOne()
        XCTAssertEqual(gated.server.takeRequest(timeout: 5)?.path, "/article")
        gated.open()
        wait(for: [outcomes.expectation], timeout: 30)
        let arrivals = gated.server.recordedRequests.map(\.path)
        XCTAssertEqual(arrivals.count, 101)
        XCTAssertEqual(arrivals.firstIndex(of: "/article"), 4, "\(arrivals.prefix(8))")
        XCTAssertEqual(network.scheduledCount, 0)
    }

    func testRaisingAQueuedRequestsPriorityMovesItAhead() {
        let network = DummyNetworkLayer(
            baseURL: URL(string: "https://api.example.com"),
            scheduling: RequestScheduling(maximumRequestsPerOrigin: 1))
        network.holdsReplies = true
        network.successResponse = ["x"]
        let tasks = (0..<10).map { index in
            network.get(
                urlString: "/p/\(index)", successHandler: { (_: [String]) in }, errorHandler: { _ in })
        }
        tasks[7].priority = .userInitiated
        XCTAssertEqual(tasks[7].priority, .userInitiated)
        while let held = network.pendingRequests.first { held.respond() }
        XCTAssertEqual(
            network.recordedRequests.map(\.url.path),
            ["/p/0", "/p/7"] + [1, 2, 3, 4, 5, 6, 8, 9].map { "/p/\($0)" })
        XCTAssertEqual(network.scheduledCount, 0)
    }

    func testABudgetOfOneSendsOneRequestAtATime() {
        let network = DummyNetworkLayer(
            baseURL: URL(string: "https://api.example.com"),
            scheduling: RequestScheduling(maximumRequestsPerOrigin: 1))
        network.holdsReplies = true
        network.successResponse = ["x"]
        network.get(urlString: "/a", successHandler: { (_: [String]) in }, errorHandler: { _ in })
        network.get(urlString: "/b", successHandler: { (_: [String]) in }, errorHandler: { _ in })
        XCTAssertEqual(network.pendingRequests.map(\.request.url.path), ["/a"], "/b waits for /a")
        network.pendingRequests[0].respond()
        XCTAssertEqual(network.pendingRequests.map(\.request.url.path), ["/b"])
        network.pendingRequests[0].respond()
        XCTAssertEqual(network.scheduledCount, 0)
    }
}
