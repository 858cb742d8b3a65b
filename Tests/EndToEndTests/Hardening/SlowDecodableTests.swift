import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// A slow `Decodable` of one layer must not hold up other layers sharing the session: decoding runs
/// code of the caller's, so it never runs on the session's serial delegate queue.
final class SlowDecodableTests: XCTestCase {
    /// Blocks in `init(from:)` until the test opens the gate.
    private struct Slow: Decodable {
        static let gate = DispatchSemaphore(value: 0)
        static let entered = DispatchSemaphore(value: 0)

        init(from decoder: any Decoder) throws {
            Self.entered.signal()
            _ = Self.gate.wait(timeout: .now() + 10)
        }
    }

    func testASlowDecodableDoesNotStallAnotherLayerOnTheSharedSession() throws {
        let server = try MockServer.started(in: self) { request in
            request.path == "/redirect"
                ? MockResponse(status: 302, headers: ["Location": "/fast"]) : try .json(["ok"])
        }
        let queue = QueueMark.makeQueue("other")
        let slowLayer = NetworkLayer(baseURL: server.baseURL, callbackQueue: queue)
        let otherLayer = NetworkLayer(baseURL: server.baseURL, callbackQueue: queue)
        let slowDone = expectation(description: "the slow request finishes once released")
        slowLayer.get(
            urlString: "slow", successHandler: { (_: Slow) in slowDone.fulfill() },
            errorHandler: { _ in slowDone.fulfill() })
        XCTAssertEqual(Slow.entered.wait(timeout: .now() + 5), .success, "decoding started")

        // The slow decoder is running now; another layer's request, redirected on the way, still finishes.
        let result = outcome(of: [String].self, on: queue, queueName: "other", timeout: 3) { recorder in
            otherLayer.get(
                urlString: "redirect", successHandler: recorder.success, errorHandler: recorder.failure)
        }
        XCTAssertEqual(result?.value, ["ok"], "\(String(describing: result))")
        Slow.gate.signal()
        wait(for: [slowDone], timeout: 10)
    }
}
