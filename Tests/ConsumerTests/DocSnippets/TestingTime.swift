// The Swift samples of NetworkTestSupport's "Testing time" article, exactly as printed there (see
// ReadmeSyncTests). `TodoListPresenter`, `SpyTodoListView` and `TodoScreenModel` are the README's.

import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

final class TestingTimeArticleTests: XCTestCase {
    func testTheListArrivesWhenTheServerIsBack() {
        let clock = TestClock()
        let network = DummyNetworkLayer(
            retryPolicy: RetryPolicy(maximumAttempts: 3, maximumDelay: 60), clock: clock)
        network.stub(
            .get, "https://api.example.com/todos",
            outcomes: [
                .response(Data(), statusCode: 503, headers: ["Retry-After": "5"]),
                .success([Todo(id: 1, title: "Write tests")]),
            ])
        let view = SpyTodoListView()
        let presenter = TodoListPresenter(view: view, networkLayer: network)

        presenter.load()
        XCTAssertNil(view.todos)  // the server asked for 5 seconds
        XCTAssertEqual(clock.waits, [5])

        clock.advance(by: 5)
        XCTAssertEqual(view.todos, [Todo(id: 1, title: "Write tests")])
    }

    func testEachRetryWaitsAtMostTwiceAsLongUpToTheCap() {
        let clock = TestClock()
        let network = DummyNetworkLayer(
            retryPolicy: RetryPolicy(maximumAttempts: 5, initialDelay: 2, maximumDelay: 10), clock: clock)
        network.stub(
            .get, "https://api.example.com/todos",
            outcomes: Array(repeating: .response(Data(), statusCode: 503, headers: [:]), count: 5))
        let view = SpyTodoListView()
        TodoListPresenter(view: view, networkLayer: network).load()

        clock.advanceUntilIdle()
        XCTAssertEqual(network.recordedRequests.count, 5)
        XCTAssertNotNil(view.errorMessage)
        for (wait, ceiling) in zip(clock.waits, [2.0, 4, 8, 10]) {
            XCTAssertLessThanOrEqual(wait, ceiling)
        }
    }

    func testASlowServerShowsTheTimeoutMessage() {
        let clock = TestClock()
        let network = DummyNetworkLayer(clock: clock)
        network.holdsReplies = true
        let view = SpyTodoListView()
        TodoListPresenter(view: view, networkLayer: network).load()

        clock.advance(by: NetworkLayer.defaultResourceTimeout - 1)
        XCTAssertNil(view.errorMessage)
        clock.advance(by: 1)
        XCTAssertEqual(view.errorMessage, NetworkError.timedOut.message)
    }

    @MainActor
    func testTheModelShowsTheListAfterTheServersWait() async {
        let clock = TestClock()
        let network = DummyNetworkLayer(
            retryPolicy: RetryPolicy(maximumAttempts: 2, maximumDelay: 60), clock: clock)
        network.stub(
            .get, "https://api.example.com/todos",
            outcomes: [
                .response(Data(), statusCode: 503, headers: ["Retry-After": "30"]),
                .success([Todo(id: 1, title: "Write tests")]),
            ])
        let model = TodoScreenModel(networkLayer: network)
        let loading = Task { await model.load() }

        let waiting = await clock.wait { $0.waits == [30] }
        XCTAssertTrue(waiting)
        clock.advance(by: 30)
        await loading.value
        XCTAssertEqual(model.todos, [Todo(id: 1, title: "Write tests")])
    }

    func testTheFeedReconnectsAfterTheServersRetryTime() throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        server.enqueue(.serverSentEvents([ServerSentEvent(data: "hello", id: "1", retry: 3)]))
        server.enqueue(MockResponse(status: 204))  // no more events: the stream ends
        let clock = TestClock()
        let network = NetworkLayer(
            clock: clock, baseURL: server.baseURL, callbackQueue: DispatchQueue(label: "feed"))
        let ended = expectation(description: "the stream ended")
        network.stream(
            NetworkRequest(urlString: "feed"), as: .serverSentEvents, eventHandler: { _ in },
            completionHandler: { _ in ended.fulfill() })

        XCTAssertTrue(clock.wait { $0.waits == [3] })  // the server's retry: field
        XCTAssertEqual(server.requestCount, 1)
        clock.advance(by: 3)
        wait(for: [ended], timeout: 10)
        XCTAssertEqual(server.requestCount, 2)
    }
}

final class TestingTimeArticleClockTests: XCTestCase {
    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    final class RecentTodos<C: Clock> where C.Duration == Duration {
        private let clock: C
        private var stored: (todos: [Todo], at: C.Instant)?

        init(clock: C) {
            self.clock = clock
        }

        func keep(_ todos: [Todo]) {
            stored = (todos, clock.now)
        }

        /// The list, for a minute after it was kept.
        var todos: [Todo]? {
            guard let stored, stored.at.duration(to: clock.now) < .seconds(60) else { return nil }
            return stored.todos
        }
    }

    @available(macOS 13, iOS 16, tvOS 16, watchOS 9, *)
    func testTheListExpiresAfterAMinute() {
        let clock = TestClock()
        let recent = RecentTodos(clock: clock)
        recent.keep([Todo(id: 1, title: "Write tests")])

        clock.advance(by: .seconds(59))
        XCTAssertNotNil(recent.todos)
        clock.advance(by: .seconds(1))
        XCTAssertNil(recent.todos)
    }
}
