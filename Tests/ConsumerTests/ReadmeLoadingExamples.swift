// The code of the README section "Loading states and async/await", exactly as printed there (see
// ReadmeSyncTests). It compiles with zero warnings in Swift 6 mode and runs as tests of this target.

import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

// README: async/await.

@MainActor
final class TodoScreenModel {
    private let networkLayer: NetworkLayer
    private(set) var todos: [Todo] = []
    private(set) var errorMessage: String?

    init(networkLayer: NetworkLayer = NetworkLayer()) {
        self.networkLayer = networkLayer
    }

    func load() async {
        do {
            todos = try await networkLayer.get(urlString: "https://api.example.com/todos")
        } catch .cancelled {
            // The screen went away: nothing to show.
        } catch {
            errorMessage = error.message
        }
    }

    func add(_ todo: Todo) async throws(NetworkError) {
        try await networkLayer.postIgnoringReply(urlString: "https://api.example.com/todos", body: todo)
        await load()
    }
}

// README: a presenter with a loading state.

protocol LoadingTodoListView: AnyObject {
    func showLoading(_ isLoading: Bool)
    func show(_ todos: [Todo])
    func showError(_ message: String)
}

final class LoadingTodoListPresenter {
    private let networkLayer: NetworkLayer
    private weak var view: LoadingTodoListView?
    private var loading: NetworkTask?

    init(view: LoadingTodoListView, networkLayer: NetworkLayer = NetworkLayer()) {
        self.view = view
        self.networkLayer = networkLayer
    }

    func viewDidAppear() {
        view?.showLoading(true)
        loading = networkLayer.get(
            urlString: "https://api.example.com/todos",
            successHandler: { (todos: [Todo]) in
                self.view?.showLoading(false)
                self.view?.show(todos)
            },
            errorHandler: { error in
                self.view?.showLoading(false)
                if case .cancelled = error { return }
                self.view?.showError(error.message)
            })
    }

    func viewDidDisappear() {
        loading?.cancel()
    }
}

// README: the tests.

final class SpyLoadingTodoListView: LoadingTodoListView {
    var isLoading = false
    var todos: [Todo]?
    var errorMessage: String?

    func showLoading(_ isLoading: Bool) { self.isLoading = isLoading }
    func show(_ todos: [Todo]) { self.todos = todos }
    func showError(_ message: String) { errorMessage = message }
}

final class LoadingTodoListPresenterTests: XCTestCase {
    private let view = SpyLoadingTodoListView()
    private let network = DummyNetworkLayer()

    func testShowsASpinnerUntilTheTodosArrive() {
        network.holdsReplies = true
        let presenter = LoadingTodoListPresenter(view: view, networkLayer: network)
        presenter.viewDidAppear()
        XCTAssertTrue(view.isLoading)
        XCTAssertNil(view.todos)

        // Releasing runs the handler now, on this thread.
        network.pendingRequests[0].succeed(with: [Todo(id: 1, title: "Write tests")])
        XCTAssertFalse(view.isLoading)
        XCTAssertEqual(view.todos, [Todo(id: 1, title: "Write tests")])
    }

    func testLeavingTheScreenCancelsTheRequest() throws {
        network.holdsReplies = true
        let presenter = LoadingTodoListPresenter(view: view, networkLayer: network)
        presenter.viewDidAppear()
        let held = try XCTUnwrap(network.pendingRequests.first)

        presenter.viewDidDisappear()
        XCTAssertFalse(view.isLoading)
        XCTAssertNil(view.errorMessage)
        XCTAssertEqual(network.cancelledRequests.count, 1)
        XCTAssertTrue(network.pendingRequests.isEmpty)

        held.succeed(with: [Todo(id: 1, title: "Too late")])  // does nothing: it was cancelled
        XCTAssertNil(view.todos)
    }

    func testTheTodosFromAFixtureFile() throws {
        let fixture = try XCTUnwrap(
            Bundle.module.url(forResource: "todos", withExtension: "json", subdirectory: "Fixtures"))
        network.stub(.get, "https://api.example.com/todos", returningContentsOf: fixture)
        LoadingTodoListPresenter(view: view, networkLayer: network).viewDidAppear()
        XCTAssertEqual(view.todos?.map(\.title), ["Write tests", "Ship it"])
    }
}

@MainActor
final class TodoScreenModelTests: XCTestCase {
    func testLoadShowsTheTodos() async {
        let network = DummyNetworkLayer()
        network.successResponse = [Todo(id: 1, title: "Write tests")]
        let model = TodoScreenModel(networkLayer: network)
        await model.load()
        XCTAssertEqual(model.todos, [Todo(id: 1, title: "Write tests")])
    }

    func testAddPostsThenReloads() async throws {
        let network = DummyNetworkLayer()
        network.stub(.get, "https://api.example.com/todos", returning: [Todo(id: 2, title: "Ship it")])
        try await TodoScreenModel(networkLayer: network).add(Todo(id: 2, title: "Ship it"))
        XCTAssertEqual(network.recordedRequests.map(\.method), [.post, .get])
        XCTAssertEqual(try network.recordedRequests[0].decodedBody(as: Todo.self).title, "Ship it")
    }
}
