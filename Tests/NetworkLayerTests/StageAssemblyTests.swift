import Foundation
import XCTest

@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A request's chain holds only the stages that have something to do for it and its layer's settings.
final class StageAssemblyTests: XCTestCase {
    private func stages(of layer: NetworkLayer) throws -> [any RequestStage] {
        let request = NetworkRequest<Data>(urlString: "http://127.0.0.1:9/items")
        let call = RequestCall(
            task: RequestTask(delivery: .immediate, failureHandler: { _ in }, clock: layer.clock),
            observer: nil, deliversImmediately: true)
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

    /// A layer with a budget passes its gate from the first request.
    func testALayerWithABudgetHasItsGate() throws {
        let budgeted = RequestScheduling(
            sharesIdenticalRequests: false, waitsForRateLimits: false, maximumRequestsPerOrigin: 2)

        XCTAssertTrue(
            try stages(of: NetworkLayer(cache: nil, scheduling: budgeted)).contains { $0 is OriginGate })
    }

    /// A layer that observes rate limits has its gate from the first request; the gate finds no scheduler
    /// (and acts on nothing) until a reply asks a pause: the chain's end watches replies, and the first
    /// pause makes the scheduler that every attempt from then on, of a request under way too, meets.
    func testALayerThatObservesRateLimitsMakesItsSchedulerAtTheFirstPause() throws {
        let layer = NetworkLayer(cache: nil, scheduling: RequestScheduling(sharesIdenticalRequests: false))
        XCTAssertTrue(try stages(of: layer).contains { $0 is OriginGate })
        XCTAssertNil(layer.origins(making: false))
        let url = try XCTUnwrap(URL(string: "http://127.0.0.1:9/items"))
        let watch = try XCTUnwrap(layer.pauseWatch())

        watch(reply(200, headers: ["X-RateLimit-Remaining": "5", "X-RateLimit-Reset": "60"], url: url), url)
        XCTAssertNil(layer.origins(making: false))
        watch(reply(429, headers: ["Retry-After": "60"], url: url), url)

        XCTAssertNotNil(layer.origins(making: false))
    }

    /// A layer that doesn't observe rate limits, or whose ceiling keeps no hold, watches no reply.
    func testALayerThatKeepsNoHoldWatchesNoReply() {
        XCTAssertNil(NetworkLayer(cache: nil, scheduling: .disabled).pauseWatch())
        XCTAssertNil(
            NetworkLayer(cache: nil, scheduling: RequestScheduling(maximumRateLimitWait: 0)).pauseWatch())
    }

    /// The watch parses only a reply that may ask a pause: every field the parse reads, in any case, at any
    /// status, gets a reply parsed; a reply with none of them is not.
    func testTheWatchParsesEveryReplyCarryingAFieldThePauseReads() {
        for status in 100...599 {
            var asked: Set<String> = []
            // "0" for every field: nothing remains, so each reset is read too.
            _ = RateLimitFields.pause(
                statusCode: status,
                field: {
                    asked.insert($0)
                    return "0"
                }, now: Date())
            for name in asked {
                for spelled in [name, name.lowercased(), name.uppercased()] {
                    let headers = ResponseHeaders(["Content-Type": "text/plain", spelled: "0"])
                    XCTAssertTrue(
                        NetworkLayer.mayAskPause(statusCode: status, headers), "\(status) \(spelled)")
                }
            }
        }
        XCTAssertFalse(
            NetworkLayer.mayAskPause(
                statusCode: 200,
                ["Content-Type": "text/plain", "Retry-After": "5", "X-Rate": "0", "Rate": "0"]))
    }

    private func reply(_ status: Int, headers: [String: String], url: URL) -> TransferResult {
        TransferResult(
            body: Data(),
            response: HTTPURLResponse(url: url, statusCode: status, httpVersion: nil, headerFields: headers),
            error: nil, respondedAt: nil)
    }
}
