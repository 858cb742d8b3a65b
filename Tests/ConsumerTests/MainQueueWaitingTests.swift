import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A main-actor screen model with a handler-based load, as a UIKit presenter often is.
@MainActor
final class MainActorTodoScreen {
    private let networkLayer: NetworkLayer
    private(set) var todos: [Todo] = []
    var onUpdate: () -> Void = {}

    init(networkLayer: NetworkLayer) {
        self.networkLayer = networkLayer
    }

    func load() {
        networkLayer.get(
            urlString: "https://api.example.com/todos",
            successHandler: { (todos: [Todo]) in
                MainActor.assumeIsolated {
                    self.todos = todos
                    self.onUpdate()
                }
            },
            errorHandler: { _ in })
    }
}

/// The advice of LinuxNotes and TestingPresenters, proven: a class that mixes synchronous and `async`
/// tests, none of the synchronous ones `@MainActor`. (Marking one `@MainActor` beside a non-isolated one
/// makes SwiftPM's generated test list fail to compile on Linux, "conflicting arguments to generic
/// parameter 'Element'"; marking them all makes the binary abort while it lists its tests.) That this
/// class runs at all is half the proof; the other half is that each test sees the main-queue handler.
final class MainQueueWaitingTests: XCTestCase {
    // Kept by the test: a layer's stubbed answers come from this transport for as long as it lives.
    private let stubs = StubTransport()

    private func layer() -> NetworkLayer {
        stubs.stub(.get, .any, with: .json([Todo(id: 1, title: "One")]))
        return stubs.makeNetworkLayer()
    }

    /// Synchronous, non-isolated: main-actor code runs inside `MainActor.assumeIsolated` (XCTest runs
    /// test methods on the main thread), and `wait(for:timeout:)` runs the main queue while it waits.
    func testASynchronousTestWaitsForAMainQueueHandler() {
        let network = layer()
        let updated = expectation(description: "the screen updated")
        // A @MainActor class is Sendable, so the screen may leave the closure; `wait` runs outside it.
        let screen = MainActor.assumeIsolated {
            let screen = MainActorTodoScreen(networkLayer: network)
            screen.onUpdate = { updated.fulfill() }
            screen.load()
            return screen
        }
        wait(for: [updated], timeout: 5)
        XCTAssertEqual(MainActor.assumeIsolated { screen.todos.map(\.id) }, [1])
    }

    /// A plain synchronous test beside it, as most classes have.
    func testAPlainSynchronousTest() {
        let network = DummyNetworkLayer()
        network.successResponse = [Todo(id: 2, title: "Two")]
        var todos: [Todo] = []
        network.get(
            urlString: "https://api.example.com/todos", successHandler: { todos = $0 }, errorHandler: { _ in }
        )
        XCTAssertEqual(todos.map(\.id), [2])
    }

    /// `async` tests may be `@MainActor`: they wait with `await fulfillment(of:)`.
    @MainActor
    func testAnAsyncMainActorTestAwaitsFulfillment() async {
        let screen = MainActorTodoScreen(networkLayer: layer())
        let updated = expectation(description: "the screen updated")
        screen.onUpdate = { updated.fulfill() }
        screen.load()
        await fulfillment(of: [updated], timeout: 5)
        XCTAssertEqual(screen.todos.map(\.id), [1])
    }
}
