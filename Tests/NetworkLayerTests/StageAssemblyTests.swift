import Foundation
import XCTest

@testable import NetworkLayer

/// A request's chain holds only the stages that have something to do for it and its layer's settings.
final class StageAssemblyTests: XCTestCase {
    private func stages(of layer: NetworkLayer) throws -> [any RequestStage] {
        let request = NetworkRequest<Data>(urlString: "http://127.0.0.1:9/items")
        let call = RequestCall(
            task: RequestTask(delivery: .immediate, failureHandler: { _ in }, priority: .default),
            meter: RequestMeter(eventCount: nil, clock: layer.clock), observer: nil, clock: layer.clock,
            deliversImmediately: true)
        return layer.stages(
            for: request, built: try layer.builder.urlRequest(for: request), route: .data(limit: 1_000),
            expecting: ReplyExpectation(request), stream: nil, call: call)
    }

    /// No budget and no rate limits observed: nothing ever holds an origin, so no gate is passed.
    func testALayerThatNeitherBudgetsNorObservesRateLimitsHasNoGate() throws {
        let stages = try stages(of: NetworkLayer(cache: nil, scheduling: .disabled))

        XCTAssertFalse(stages.contains { $0 is OriginGate })
        XCTAssertTrue(stages.contains { $0 is AttemptStage })
    }

    /// A layer that observes rate limits, or has a budget, keeps its gate.
    func testALayerThatObservesRateLimitsOrHasABudgetKeepsItsGate() throws {
        let observing = RequestScheduling(sharesIdenticalRequests: false)
        let budgeted = RequestScheduling(
            sharesIdenticalRequests: false, waitsForRateLimits: false, maximumRequestsPerOrigin: 2)

        XCTAssertTrue(
            try stages(of: NetworkLayer(cache: nil, scheduling: observing)).contains { $0 is OriginGate })
        XCTAssertTrue(
            try stages(of: NetworkLayer(cache: nil, scheduling: budgeted)).contains { $0 is OriginGate })
    }
}
