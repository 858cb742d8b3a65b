import Foundation
import NetworkLayer
import NetworkTestSupport
import Testing
import XCTest

// Issue 19, defect 2: in a MainActor-default module a handler closure is main-actor code, and the layer
// runs it on `callbackQueue`; with a queue other than main, nothing would report the race. The supported
// forms (MainActorDefaultModules.md, "A callback queue other than main"), each checked here:
//
// 1. `callbackQueue` `.main`, the default: plain handlers, which may touch main-actor state.
// 2. Another queue: handlers written `{ @Sendable ... }`, which are not main-actor code, so the compiler
//    rejects main-actor state inside them (it did in a trial: "main actor-isolated property 'items' can
//    not be mutated from a Sendable closure"); they run on that queue.
// 3. The `async` forms, with any queue: they resume on the caller's actor.

/// Values a `@Sendable` handler hands back; its own lock, since it is written from the callback queue.
nonisolated final class Delivered<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storedValue: Value?
    private var storedQueue: String?

    var value: Value? { lock.withLock { storedValue } }
    var queue: String? { lock.withLock { storedQueue } }

    func record(_ value: Value, key: DispatchSpecificKey<String>) {
        let queue = DispatchQueue.getSpecific(key: key)
        lock.withLock {
            storedValue = value
            storedQueue = queue
        }
    }
}

nonisolated enum CallbackQueues {
    static let key = DispatchSpecificKey<String>()

    /// Marks the main queue too, so a test can tell it from the others.
    static func make(_ label: String) -> DispatchQueue {
        DispatchQueue.main.setSpecific(key: key, value: "main")
        let queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: label)
        return queue
    }
}

/// A screen model that keeps the default MainActor isolation and awaits the layer.
final class ItemsScreen {
    let network: NetworkLayer
    private(set) var items: [Item] = []
    /// Whether the method resumed on the main queue, the main actor's executor. (Not the main thread:
    /// under Swift Testing on Linux the main queue runs off it, as under `dispatchMain()`.)
    private(set) var resumedOnMainQueue = false

    init(network: NetworkLayer) {
        self.network = network
    }

    func load() async throws(NetworkError) {
        items = try await network.get(urlString: "https://api.example.com/items")
        resumedOnMainQueue = DispatchQueue.getSpecific(key: CallbackQueues.key) == "main"
    }
}

@Suite("A callback queue other than main, from a MainActor-default module")
struct CallbackQueueSuite {
    @Test("@Sendable handlers run on the layer's queue")
    func sendableHandlers() async throws {
        let stubs = StubTransport()
        stubs.stub(nil, .any, with: .json([Item(id: 3)]))
        let network = stubs.makeNetworkLayer(callbackQueue: CallbackQueues.make("items-callbacks"))
        let delivered = Delivered<[Item]>()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            network.get(
                urlString: "https://api.example.com/items",
                successHandler: { @Sendable (items: [Item]) in
                    delivered.record(items, key: CallbackQueues.key)
                    done.resume()
                },
                errorHandler: { @Sendable _ in done.resume() })
        }
        #expect(delivered.value == [Item(id: 3)])
        #expect(delivered.queue == "items-callbacks")
        #expect(stubs.recordedRequests.count == 1)
    }

    @Test("The async forms resume main-actor code on the main actor, whatever the callback queue")
    func asyncForms() async throws {
        let stubs = StubTransport()
        stubs.stub(nil, .any, with: .json([Item(id: 4)]))
        let screen = ItemsScreen(
            network: stubs.makeNetworkLayer(callbackQueue: CallbackQueues.make("background")))
        try await screen.load()
        #expect(screen.items == [Item(id: 4)])
        #expect(screen.resumedOnMainQueue)
        #expect(stubs.recordedRequests.count == 1)
    }
}

/// The same forms from XCTest; why the synchronous test is `nonisolated`: see DummyLayerTests.swift.
final class CallbackQueueTests: XCTestCase {
    nonisolated required init(name: String, testClosure: @escaping XCTestCaseClosure) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testSendableHandlersRunOnTheLayersQueue() {
        MainActor.assumeIsolated {
            let stubs = StubTransport()
            stubs.stub(nil, .any, with: .json([Item(id: 5)]))
            let network = stubs.makeNetworkLayer(callbackQueue: CallbackQueues.make("xctest-callbacks"))
            let delivered = Delivered<[Item]>()
            let answered = expectation(description: "answered")
            network.get(
                urlString: "https://api.example.com/items",
                successHandler: { @Sendable (items: [Item]) in
                    delivered.record(items, key: CallbackQueues.key)
                    answered.fulfill()
                },
                errorHandler: { @Sendable _ in answered.fulfill() })
            wait(for: [answered], timeout: 10)
            XCTAssertEqual(delivered.value, [Item(id: 5)])
            XCTAssertEqual(delivered.queue, "xctest-callbacks")
            XCTAssertEqual(stubs.recordedRequests.count, 1)
        }
    }

    func testTheAsyncFormsResumeOnTheMainActor() async throws {
        let stubs = StubTransport()
        stubs.stub(nil, .any, with: .json([Item(id: 6)]))
        let screen = ItemsScreen(network: stubs.makeNetworkLayer(callbackQueue: CallbackQueues.make("bg")))
        try await screen.load()
        XCTAssertEqual(screen.items, [Item(id: 6)])
        XCTAssertTrue(screen.resumedOnMainQueue)
        XCTAssertEqual(stubs.recordedRequests.count, 1)
    }
}

// The sample of MainActorDefaultModules.md, "A callback queue other than main"; compiled, not run.

nonisolated final class ItemCache: Sendable {
    func store(_ items: [Item]) {}
}

nonisolated final class ErrorLog: Sendable {
    func record(_ error: NetworkError) {}
}

func loadOnOwnQueue(cache: ItemCache, log: ErrorLog) async throws(NetworkError) -> [Item] {
    let network = NetworkLayer(callbackQueue: DispatchQueue(label: "sync"))
    network.get(
        urlString: "items",
        successHandler: { @Sendable (items: [Item]) in cache.store(items) },  // runs on "sync"
        errorHandler: { @Sendable error in log.record(error) })
    let items: [Item] = try await network.get(urlString: "items")  // back on the main actor
    return items
}
