import Foundation
import NetworkLayer
import NetworkTestSupport
import Testing

@Suite("cancelAll()")
struct CancelAllSuite {
    @Test("Replies scheduled on a delivery queue become .cancelled, once each")
    func scheduledReplies() async throws {
        let queue = DispatchQueue(label: "replies")
        let network = DummyNetworkLayer(deliveryQueue: queue)
        network.successResponse = [Todo(id: 1, title: "Late")]
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }  // holds the queue, so both replies are still scheduled
        let outcomes = Outcomes()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            outcomes.afterTwo = { done.resume() }
            for _ in 0..<2 {
                network.get(
                    urlString: "https://api.example.com/todos",
                    successHandler: { (_: [Todo]) in outcomes.record("success") },
                    errorHandler: { outcomes.record($0.description) })
            }
            network.cancelAll()
            gate.signal()
        }
        #expect(outcomes.all == ["cancelled", "cancelled"])
        #expect(network.cancelledRequests.count == 2)
    }

    @Test("An awaited request throws .cancelled")
    @MainActor
    func awaited() async throws {
        let network = DummyNetworkLayer()
        network.holdsReplies = true
        let waiting = Task { @MainActor () -> String in
            do {
                let todos: [Todo] = try await network.get(urlString: "https://api.example.com/todos")
                return "\(todos)"
            } catch {
                return "\(error)"
            }
        }
        // The task runs on the main actor up to its suspension, which comes after the request is held.
        await Task.yield()
        try #require(network.pendingRequests.count == 1)
        network.cancelAll()
        let outcome = await waiting.value
        #expect(outcome == "cancelled")
    }
}

/// Outcomes recorded from any queue, in order.
final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var outcomes: [String] = []
    /// Runs once, after the second outcome.
    var afterTwo: () -> Void = {}

    var all: [String] { lock.withLock { outcomes } }

    func record(_ outcome: String) {
        let count = lock.withLock {
            outcomes.append(outcome)
            return outcomes.count
        }
        if count == 2 { afterTwo() }
    }
}
