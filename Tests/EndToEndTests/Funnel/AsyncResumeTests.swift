import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// The `async` forms resume where the outcome is settled, not through the callback queue: an app whose
/// callback queue is busy (or a test whose queue is suspended) still gets its reply.
final class AsyncResumeTests: XCTestCase {
    private let stubs = StubTransport()

    /// A layer whose callback queue stays suspended until the test resumes it, so that an `async` call
    /// still waiting for that queue ends after the expectation has failed.
    private func layerWithSuspendedCallbackQueue() -> (NetworkLayer, DispatchQueue) {
        let queue = DispatchQueue(label: "suspended callbacks")
        queue.suspend()
        return (
            stubs.makeNetworkLayer(baseURL: URL(string: "https://api.example.com"), callbackQueue: queue),
            queue
        )
    }

    func testAnAwaitedSendReturnsWhileTheCallbackQueueIsSuspended() async throws {
        let (network, queue) = layerWithSuspendedCallbackQueue()
        stubs.stub(.get, "https://api.example.com/items", with: .json(["a", "b"]))
        let returned = expectation(description: "the await returned")
        let items = Task {
            defer { returned.fulfill() }
            let items: [String] = try await network.get(urlString: "items")
            return items
        }
        await fulfillment(of: [returned], timeout: 5)
        queue.resume()
        let value = try await items.value
        XCTAssertEqual(value, ["a", "b"])
    }

    func testAnAwaitedFailureThrowsWhileTheCallbackQueueIsSuspended() async {
        let (network, queue) = layerWithSuspendedCallbackQueue()
        stubs.stub(.get, "https://api.example.com/missing", with: StubResponse(status: 404))
        let failed = expectation(description: "the failure was thrown")
        let failure = Task { () async -> NetworkError? in
            defer { failed.fulfill() }
            do throws(NetworkError) {
                let _: [String] = try await network.get(urlString: "missing")
                return nil
            } catch {
                return error
            }
        }
        await fulfillment(of: [failed], timeout: 5)
        queue.resume()
        let error = await failure.value
        XCTAssertEqual(error?.statusCode, 404)
    }

    func testACancelledAwaitThrowsWhileTheCallbackQueueIsSuspended() async throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse().withFault(.stall))
        let queue = DispatchQueue(label: "suspended callbacks")
        queue.suspend()
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: queue)
        let cancelled = expectation(description: "the cancel was thrown")
        let stalled = Task { () async -> NetworkError? in
            defer { cancelled.fulfill() }
            do throws(NetworkError) {
                let _: [String] = try await network.get(urlString: "stall")
                return nil
            } catch {
                return error
            }
        }
        // Cancelled once in flight: a task cancelled before the call never reaches the layer.
        _ = await Task.detached { server.takeRequest(timeout: 5) }.value
        stalled.cancel()
        await fulfillment(of: [cancelled], timeout: 5)
        queue.resume()
        let error = await stalled.value
        XCTAssertEqual(error?.isCancelled, true, String(describing: error))
    }
}
