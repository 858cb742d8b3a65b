import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Cancelling the Swift `Task` that awaits a request: before it starts, while it is being sent, while
/// the server stalls, while the dummy holds it, and racing its completion.
final class AsyncCancellationTests: XCTestCase {
    func testCancellingTheTaskCancelsARequestTheServerIsStallingOn() async throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        server.enqueue(MockResponse().withFault(.stall))
        let network = NetworkLayer(baseURL: server.baseURL, timeout: 30)
        let task = Task {
            await outcome { () async throws(NetworkError) -> [Todo] in
                try await network.get(urlString: "todos")
            }
        }
        let arrived = await nextRequest(to: server)
        XCTAssertEqual(arrived?.path, "/todos")
        let cancelledAt = Date()
        task.cancel()
        let result = await task.value
        XCTAssertTrue(result.isCancelled, "\(result)")
        XCTAssertLessThan(Date().timeIntervalSince(cancelledAt), 5, "well before the 30 s timeout")
    }

    func testATaskCancelledBeforeTheCallSendsNothing() async {
        let network = DummyNetworkLayer()
        network.successResponse = [Todo(id: 1, title: "A")]
        let stubs = StubTransport()
        let real = stubs.makeNetworkLayer()
        let results = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            let dummy = await outcome { () async throws(NetworkError) -> [Todo] in
                try await network.get(urlString: "https://api.example.com/todos")
            }
            let realResult = await outcome { () async throws(NetworkError) in
                try await real.deleteIgnoringReply(urlString: "https://api.example.com/todos/1")
            }
            return (dummy.isCancelled, realResult.isCancelled)
        }.value
        XCTAssertTrue(results.0)
        XCTAssertTrue(results.1)
        XCTAssertTrue(network.recordedRequests.isEmpty)
        XCTAssertTrue(stubs.recordedRequests.isEmpty)
    }

    func testACancelWhileTheRequestIsBeingSentCancelsItOnceItIsSent() async {
        let network = CancellingWhileSendingLayer()
        network.holdsReplies = true
        let result = await Task {
            await outcome { () async throws(NetworkError) -> [Todo] in
                try await network.get(urlString: "https://api.example.com/todos")
            }
        }.value
        XCTAssertTrue(result.isCancelled, "\(result)")
        XCTAssertEqual(network.cancelledRequests.count, 1)
        XCTAssertTrue(network.pendingRequests.isEmpty)
    }

    func testAHeldRequestIsCancelledWithItsTaskAndReleasingItDoesNothing() async throws {
        let network = DummyNetworkLayer()
        network.holdsReplies = true
        let task = Task {
            await outcome { () async throws(NetworkError) -> [Todo] in
                try await network.get(urlString: "https://api.example.com/todos")
            }
        }
        let isHeld = await waitForPendingRequests(network)
        XCTAssertTrue(isHeld)
        let held = try XCTUnwrap(network.pendingRequests.first)
        task.cancel()
        let result = await task.value
        XCTAssertTrue(result.isCancelled, "\(result)")
        held.succeed(with: [Todo(id: 1, title: "Too late")])
        XCTAssertTrue(network.pendingRequests.isEmpty)
        XCTAssertEqual(network.cancelledRequests.map(\.url.path), ["/todos"])
    }

    func testAHeldRequestAnswersTheAwaitingTaskWhenReleased() async {
        let network = DummyNetworkLayer()
        network.holdsReplies = true
        let task = Task {
            await outcome { () async throws(NetworkError) -> [Todo] in
                try await network.get(urlString: "https://api.example.com/todos")
            }
        }
        let isHeld = await waitForPendingRequests(network)
        XCTAssertTrue(isHeld)
        network.pendingRequests.first?.succeed(with: [Todo(id: 1, title: "A")])
        let result = await task.value
        XCTAssertEqual(result.value, [Todo(id: 1, title: "A")])
    }

    func testACancelAfterTheReplyArrivedButBeforeItWasDeliveredWins() async {
        let delivery = DispatchQueue(label: "held.delivery")
        let network = DummyNetworkLayer(deliveryQueue: delivery)
        network.successResponse = [Todo(id: 1, title: "A")]
        delivery.suspend()
        let task = Task {
            await outcome { () async throws(NetworkError) -> [Todo] in
                try await network.get(urlString: "https://api.example.com/todos")
            }
        }
        // The dummy answered at once; its delivery waits on the suspended queue.
        let answered = await waitUntil { !network.recordedRequests.isEmpty }
        XCTAssertTrue(answered)
        task.cancel()
        // The cancel reaches the request once `send` has returned it: only then may the delivery run.
        let cancelled = await waitUntil { !network.cancelledRequests.isEmpty }
        XCTAssertTrue(cancelled)
        delivery.resume()
        let result = await task.value
        XCTAssertTrue(result.isCancelled, "\(result)")
    }

    func testACancelAfterTheReplyWasDeliveredChangesNothing() async {
        let network = DummyNetworkLayer()
        network.successResponse = [Todo(id: 1, title: "A")]
        let task = Task {
            await outcome { () async throws(NetworkError) -> [Todo] in
                try await network.get(urlString: "https://api.example.com/todos")
            }
        }
        let result = await task.value
        task.cancel()
        XCTAssertEqual(result.value, [Todo(id: 1, title: "A")])
        XCTAssertTrue(network.cancelledRequests.isEmpty)
    }

    func testCancelRacingTheDummysDeliveryResumesExactlyOnce() async {
        // The dummy delivers on a queue, so each reply races the cancel.
        let network = DummyNetworkLayer(deliveryQueue: DispatchQueue(label: "race.delivery"))
        network.successResponse = [Todo(id: 1, title: "A")]
        let tally = Tally()
        let finished = expectation(description: "every request ended")
        finished.expectedFulfillmentCount = 400
        for index in 0..<400 {
            let task = Task {
                tally.add(
                    await outcome { () async throws(NetworkError) -> [Todo] in
                        try await network.get(urlString: "https://api.example.com/todos")
                    })
                finished.fulfill()
            }
            // From another thread, after a varying number of yields: early, mid-flight and late.
            Task.detached {
                for _ in 0..<(index % 16) { await Task.yield() }
                task.cancel()
            }
        }
        // A second resume would trap; a missing one would leave the expectation unfulfilled.
        await fulfillment(of: [finished], timeout: 60)
        XCTAssertEqual(tally.cancelled + tally.succeeded, 400, "only success or .cancelled: \(tally.others)")
    }

    func testCancelRacingARealReplyResumesExactlyOnce() async throws {
        let tasks = TaskBoard()
        // The server cancels the client's task from another thread just as it writes the reply, so the
        // cancel races the reply through the transport, validation and delivery.
        let server = MockServer { request in
            let index = Int(request.path.dropFirst("/todos/".count)) ?? 0
            DispatchQueue.global().async { tasks.cancel(index) }
            return try .json([Todo(id: index, title: "A")])
        }
        try server.start()
        defer { server.stop() }
        let network = NetworkLayer(
            baseURL: server.baseURL, callbackQueue: DispatchQueue(label: "race.callbacks"), timeout: 10)
        let tally = Tally()
        let finished = expectation(description: "every request ended")
        finished.expectedFulfillmentCount = 100
        for index in 0..<100 {
            tasks.add(index) {
                Task {
                    tally.add(
                        await outcome { () async throws(NetworkError) -> [Todo] in
                            try await network.get(urlString: "todos/\(index)")
                        }, expecting: [Todo(id: index, title: "A")])
                    finished.fulfill()
                }
            }
        }
        await fulfillment(of: [finished], timeout: 60)
        XCTAssertEqual(tally.cancelled + tally.succeeded, 100, "only success or .cancelled: \(tally.others)")
    }
}

/// Tasks by number, so a server handler can cancel the one whose request it is answering.
private final class TaskBoard: @unchecked Sendable {
    private let lock = NSLock()
    private var tasks: [Int: Task<Void, Never>] = [:]

    /// Registers the task `start` makes before it can send anything, so `cancel` always finds it.
    func add(_ index: Int, _ start: () -> Task<Void, Never>) {
        lock.withLock { tasks[index] = start() }
    }

    func cancel(_ index: Int) {
        lock.withLock { tasks[index] }?.cancel()
    }
}

/// Counts outcomes from many tasks.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var counts = (cancelled: 0, succeeded: 0)
    private var otherErrors: [String] = []

    var cancelled: Int { lock.withLock { counts.cancelled } }
    var succeeded: Int { lock.withLock { counts.succeeded } }
    var others: [String] { lock.withLock { otherErrors } }

    func add(_ result: Result<[Todo], NetworkError>, expecting expected: [Todo] = [Todo(id: 1, title: "A")]) {
        lock.withLock {
            switch result {
            case .success(expected): counts.succeeded += 1
            case .failure(.cancelled): counts.cancelled += 1
            default: otherErrors.append("\(result)")
            }
        }
    }
}

/// A layer whose task is cancelled while `send` runs, after the request was built but before `send`
/// returns its task: the window between starting a request and being able to cancel it.
private final class CancellingWhileSendingLayer: DummyNetworkLayer, @unchecked Sendable {
    override func send<Value>(
        _ request: NetworkRequest<Value>,
        successHandler: @escaping (NetworkResponse<Value>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        let task = super.send(request, successHandler: successHandler, errorHandler: errorHandler)
        withUnsafeCurrentTask { $0?.cancel() }
        return task
    }
}
