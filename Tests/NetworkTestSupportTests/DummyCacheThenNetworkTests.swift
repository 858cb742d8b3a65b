import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// `DummyNetworkLayer` scripting both phases of cache then network: in its immediate mode, holding, and on
/// a delivery queue.
final class DummyCacheThenNetworkTests: XCTestCase {
    private let saved = ["saved"]
    private let fresh = ["saved", "fresh"]

    /// What one call delivered, in order.
    private final class Received: @unchecked Sendable {
        // Unchecked: written by handlers that run one at a time, read after the completion.
        var values: [[String]] = []
        var statuses: [CacheStatus] = []
        var completions: [NetworkError?] = []
    }

    private func load(_ network: DummyNetworkLayer, into received: Received) -> NetworkTask {
        network.sendCacheThenNetwork(
            NetworkRequest<[String]>(urlString: "items"),
            updateHandler: { response in
                received.values.append(response.value)
                received.statuses.append(response.cacheStatus)
            },
            completionHandler: { received.completions.append($0) })
    }

    func testTheStoredValueThenTheFreshOneBeforeTheCallReturns() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.stub(.get, "items", stored: saved, then: .success(fresh))
        let received = Received()
        _ = load(network, into: received)
        XCTAssertEqual(received.values, [saved, fresh])
        XCTAssertEqual(received.statuses, [.hit, .network])
        XCTAssertEqual(received.completions.count, 1)
        XCTAssertNil(received.completions.first ?? nil)
        XCTAssertEqual(network.callCount(.get, "items"), 2, "both phases are recorded")
    }

    func testA304GivesTheStoredValueRevalidated() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.stub(.get, "items", stored: saved, then: .cached(saved, cacheStatus: .revalidated))
        let received = Received()
        _ = load(network, into: received)
        XCTAssertEqual(received.values, [saved, saved])
        XCTAssertEqual(received.statuses, [.hit, .revalidated])
    }

    func testAFailureAfterTheStoredValueGoesToTheCompletion() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.stub(.get, "items", stored: saved, then: .failure(.timedOut))
        let received = Received()
        _ = load(network, into: received)
        XCTAssertEqual(received.values, [saved])
        guard case .timedOut? = received.completions.first ?? nil else {
            return XCTFail("\(received.completions)")
        }
    }

    func testNothingStoredGivesOnlyTheNetworksValue() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.stub(.get, "items", stored: nil, then: .success(fresh))
        let received = Received()
        _ = load(network, into: received)
        XCTAssertEqual(received.values, [fresh])
        XCTAssertEqual(received.statuses, [.network])
    }

    /// A second load (a pull to refresh) finds the stored value again, and an ordinary request the
    /// network's answer.
    func testTheStoredValueAnswersEveryStoredPhase() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.stub(.get, "items", stored: saved, then: .success(fresh))
        let received = Received()
        _ = load(network, into: received)
        _ = load(network, into: received)
        XCTAssertEqual(received.values, [saved, fresh, saved, fresh])
        let ordinary = expectation(description: "loaded")
        network.get(
            urlString: "items",
            successHandler: { (value: [String]) in
                XCTAssertEqual(value, self.fresh)
                ordinary.fulfill()
            }, errorHandler: { XCTFail("\($0)") })
        wait(for: [ordinary], timeout: 1)
    }

    func testHeldPhasesAreReleasedOneAtATime() async throws {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.holdsReplies = true
        let received = Received()
        let task = load(network, into: received)
        let stored = try await unwrapAsync(await network.nextPendingRequest())
        stored.respond(with: .cached(saved, cacheStatus: .hit))
        XCTAssertEqual(received.values, [saved])
        _ = try await unwrapAsync(await network.nextPendingRequest())
        task.cancel()
        XCTAssertEqual(received.values, [saved], "no update after the cancel")
        XCTAssertEqual(received.completions.count, 1)
        guard case .cancelled? = received.completions.first ?? nil else {
            return XCTFail("\(received.completions)")
        }
        XCTAssertTrue(network.pendingRequests.isEmpty, "the network phase was cancelled")
    }

    /// On a concurrent queue the handlers still run one at a time, in order: the completion never runs
    /// while an update does.
    func testHandlersKeepTheirOrderOnAConcurrentQueue() {
        let queue = DispatchQueue(label: "concurrent delivery", attributes: .concurrent)
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"), deliveryQueue: queue)
        network.stub(.get, "items", stored: saved, then: .success(fresh))
        let completed = DispatchSemaphore(value: 0)
        let overlapped = Locked(false)
        let done = expectation(description: "completed")
        network.sendCacheThenNetwork(
            NetworkRequest<[String]>(urlString: "items"),
            updateHandler: { (response: NetworkResponse<[String]>) in
                // A completion running meanwhile would signal within this bounded wait.
                let signalled = completed.wait(timeout: .now() + 0.3) == .success
                overlapped.withLock { $0 = $0 || signalled }
            },
            completionHandler: { _ in
                completed.signal()
                done.fulfill()
            })
        wait(for: [done], timeout: 5)
        XCTAssertFalse(overlapped.withLock { $0 })
    }
}

/// `XCTUnwrap` for an `async` expression's value.
private func unwrapAsync<T>(
    _ value: @autoclosure () async throws -> T?, file: StaticString = #filePath, line: UInt = #line
) async throws -> T {
    let unwrapped = try await value()
    return try XCTUnwrap(unwrapped, file: file, line: line)
}
