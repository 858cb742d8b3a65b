// The code of the README section "Testing your presenters", exactly as printed there, so that it is
// known to compile and pass. The README shows each block with its own imports; the formatter gathers
// them here.

import NetworkLayer
import NetworkTestSupport
import XCTest

// README: the presenter.

struct Todo: Codable, Equatable {
    let id: Int
    let title: String
}

protocol TodoListView: AnyObject {
    func show(_ todos: [Todo])
    func showError(_ message: String)
}

final class TodoListPresenter {
    private let networkLayer: NetworkLayer
    private weak var view: TodoListView?

    init(view: TodoListView, networkLayer: NetworkLayer = NetworkLayer()) {
        self.view = view
        self.networkLayer = networkLayer
    }

    func load() {
        networkLayer.get(
            urlString: "https://api.example.com/todos",
            successHandler: { (todos: [Todo]) in self.view?.show(todos) },
            errorHandler: { error in self.view?.showError(error.message) })
    }

    func add(_ todo: Todo) {
        networkLayer.post(
            urlString: "https://api.example.com/todos", body: todo,
            successHandler: { self.load() },
            errorHandler: { error in self.view?.showError(error.message) })
    }
}

// README: the unit tests.

final class SpyTodoListView: TodoListView {
    var todos: [Todo]?
    var errorMessage: String?
    var onUpdate: () -> Void = {}

    func show(_ todos: [Todo]) {
        self.todos = todos
        onUpdate()
    }

    func showError(_ message: String) {
        errorMessage = message
        onUpdate()
    }
}

final class TodoListPresenterTests: XCTestCase {
    private let view = SpyTodoListView()
    private let network = DummyNetworkLayer()

    func testLoadShowsTheTodos() {
        network.successResponse = [Todo(id: 1, title: "Write tests")]
        TodoListPresenter(view: view, networkLayer: network).load()
        // No waiting: the dummy runs the handler before load() returns.
        XCTAssertEqual(view.todos, [Todo(id: 1, title: "Write tests")])
    }

    func testLoadShowsTheError() {
        network.errorResponse = "Unable to parse response"
        TodoListPresenter(view: view, networkLayer: network).load()
        XCTAssertEqual(view.errorMessage, "Unable to parse response")
    }

    func testAddPostsTheTodoThenReloads() {
        let todo = Todo(id: 2, title: "Ship it")
        network.stub(.get, "https://api.example.com/todos", returning: [todo])
        TodoListPresenter(view: view, networkLayer: network).add(todo)
        XCTAssertEqual(network.recordedRequests.map(\.method), [.post, .get])
        XCTAssertEqual(try network.recordedRequests[0].decodedBody(as: Todo.self), todo)
        XCTAssertEqual(view.todos, [todo])
    }

    func testRetryAfterGoingOffline() {
        network.stub(
            .get, "https://api.example.com/todos",
            outcomes: [.failure("You are offline"), .success([Todo(id: 1, title: "Write tests")])])
        let presenter = TodoListPresenter(view: view, networkLayer: network)
        presenter.load()
        XCTAssertEqual(view.errorMessage, "You are offline")
        presenter.load()
        XCTAssertEqual(view.todos?.count, 1)
        XCTAssertEqual(network.callCount(.get, "https://api.example.com/todos"), 2)
    }
}

// README: the stub transport.

final class TodoListPresenterIntegrationTests: XCTestCase {
    func testLoadDecodesTheServersJSON() {
        let stubs = StubTransport()
        stubs.stub(.get, "https://api.example.com/todos", with: .json([Todo(id: 1, title: "Write tests")]))
        let view = SpyTodoListView()
        let shown = expectation(description: "todos shown")
        view.onUpdate = { shown.fulfill() }

        TodoListPresenter(view: view, networkLayer: stubs.makeNetworkLayer()).load()

        // The real layer answers on the main queue, which wait(for:timeout:) drains.
        wait(for: [shown], timeout: 5)
        XCTAssertEqual(view.todos, [Todo(id: 1, title: "Write tests")])
        XCTAssertEqual(stubs.recordedRequests.first?.header("Accept"), "application/json")
    }
}
