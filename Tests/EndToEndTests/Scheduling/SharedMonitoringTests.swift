import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What monitors see of a shared request (issue 34): one network attempt, told to the monitors of the
/// caller that started it, and every caller's request finishing, each with the shared request's metrics.
final class SharedMonitoringTests: XCTestCase {
    func testMonitorsSeeOneAttemptAndEveryCallersRequest() throws {
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

        let summaries = recorder.summaries
        XCTAssertEqual(summaries.filter { $0 == "start 1" }.count, 1, "one network attempt: \(summaries)")
        XCTAssertEqual(summaries.filter { $0 == "receive 1 200" }.count, 1, "\(summaries)")
        XCTAssertEqual(
            summaries.filter { $0 == "finish 200" }.count, 3, "every caller's request: \(summaries)")
        let finishes = recorder.events.compactMap { event -> (MonitoredRequest, RequestMetrics)? in
            guard case .finish(let request, _, let metrics) = event else { return nil }
            return (request, metrics)
        }
        XCTAssertEqual(Set(finishes.map(\.0.id)).count, 3, "three requests")
        XCTAssertEqual(finishes.map(\.1.attempts), [1, 1, 1], "each with the shared request's metrics")
        XCTAssertTrue(finishes.allSatisfy { $0.1.bytesReceived == Data(#"["ann"]"#.utf8).count })
    }
}
