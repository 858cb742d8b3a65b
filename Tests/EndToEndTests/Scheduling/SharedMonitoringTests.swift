import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What monitors see of a shared request (issues 34, 44): each caller's attempt, told to that caller's
/// monitors (sharing sits below the attempt's bookkeeping), and every caller's request finishing, while the
/// server sees one request.
final class SharedMonitoringTests: XCTestCase {
    func testEachCallersMonitorsSeeItsOwnAttemptOfOneNetworkRequest() throws {
        let gated = try GatedServer(in: self) { _ in try .json(["ann"]) }
        let recorder = EventRecorder()
        let network = NetworkLayer(
            baseURL: gated.server.baseURL, sessionConfiguration: .ephemeral,
            callbackQueue: DispatchQueue(label: "shared-monitoring"), monitors: [recorder], cache: nil)
        let finished = recorder.expectFinishes(3, self)
        let outcomes = CallerOutcomes<[String]>(expectation(description: "3 outcomes"), count: 3)
        for index in 0..<3 {
            let (success, failure) = outcomes.handlers(index)
            network.send(
                NetworkRequest<[String]>(urlString: "me"), successHandler: success, errorHandler: failure)
        }
        XCTAssertNotNil(gated.server.takeRequest(timeout: 5))
        gated.open()
        wait(for: [outcomes.expectation, finished], timeout: 10)

        XCTAssertEqual(gated.server.requestCount, 1, "one network request")
        let summaries = recorder.summaries
        XCTAssertEqual(summaries.filter { $0 == "start 1" }.count, 3, "each caller's attempt: \(summaries)")
        XCTAssertEqual(summaries.filter { $0 == "receive 1 200" }.count, 3, "\(summaries)")
        XCTAssertEqual(
            summaries.filter { $0 == "finish 200" }.count, 3, "every caller's request: \(summaries)")
        let finishes = recorder.events.compactMap { event -> (MonitoredRequest, RequestMetrics)? in
            guard case .finish(let request, _, let metrics) = event else { return nil }
            return (request, metrics)
        }
        XCTAssertEqual(Set(finishes.map(\.0.id)).count, 3, "three requests")
        XCTAssertEqual(finishes.map(\.1.attempts), [1, 1, 1], "each with its own attempt")
        XCTAssertTrue(finishes.allSatisfy { $0.1.bytesReceived == Data(#"["ann"]"#.utf8).count })
    }
}
