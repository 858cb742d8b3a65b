import Foundation
import NetworkLayer
import NetworkTestSupport
import Testing

/// `DummyNetworkLayer` in Swift Testing: every test makes its own layer, so the suite runs in parallel.
@Suite("DummyNetworkLayer")
struct DummySuite {
    let network = DummyNetworkLayer()
    let view = SpyLoadingTodoListView()

    @Test("A presenter shows its spinner until the held reply is released")
    func spinnerUntilReleased() throws {
        network.holdsReplies = true
        LoadingTodoListPresenter(view: view, networkLayer: network).viewDidAppear()
        #expect(view.isLoading)
        #expect(view.todos == nil)
        let held = try #require(network.pendingRequests.first)
        held.succeed(with: [Todo(id: 1, title: "Write tests")])
        #expect(!view.isLoading)
        #expect(view.todos == [Todo(id: 1, title: "Write tests")])
        #expect(network.pendingRequests.isEmpty)
    }

    @Test("Leaving the screen cancels the held request; releasing it then does nothing")
    func cancelOnDisappear() throws {
        network.holdsReplies = true
        let presenter = LoadingTodoListPresenter(view: view, networkLayer: network)
        presenter.viewDidAppear()
        let held = try #require(network.pendingRequests.first)
        presenter.viewDidDisappear()
        held.respond()
        #expect(view.todos == nil)
        #expect(view.errorMessage == nil)
        #expect(network.cancelledRequests.count == 1)
    }

    @Test("respond() answers from the stubs at release time")
    func respondUsesTheStubsAtRelease() async throws {
        let network = self.network
        network.holdsReplies = true
        let loading = Task {
            await outcome { () async throws(NetworkError) -> [Todo] in
                try await network.get(urlString: "https://api.example.com/todos")
            }
        }
        #expect(await waitForPendingRequests(network))
        network.stub(.get, "https://api.example.com/todos", returning: [Todo(id: 9, title: "Late stub")])
        try #require(network.pendingRequests.first).respond()
        #expect(await loading.value.value == [Todo(id: 9, title: "Late stub")])
    }

    @Test("The async forms are answered by the dummy")
    @MainActor
    func asyncFormsFromTheMainActor() async throws {
        network.successResponse = [Todo(id: 1, title: "A")]
        let model = TodoScreenModel(networkLayer: network)
        await model.load()
        #expect(model.todos == [Todo(id: 1, title: "A")])
        try await model.add(Todo(id: 2, title: "B"))
        #expect(network.recordedRequests.map(\.method) == [.get, .post, .get])
        #expect(try network.recordedRequests[1].decodedBody(as: Todo.self) == Todo(id: 2, title: "B"))
    }

    @Test("A fixture file is decoded with the app's decoder")
    func fixtureFile() async throws {
        let url = try #require(
            Bundle.module.url(forResource: "chores", withExtension: "json", subdirectory: "Fixtures"))
        let network = DummyNetworkLayer(
            environment: APIEnvironment(baseURL: URL(string: "https://api.example.com/")!),
            encoder: AppCoding.encoder, decoder: AppCoding.decoder)
        network.stub(ChoresAPI.list, returningContentsOf: url)
        let chores: [Chore] = try await network.request(ChoresAPI.list)
        #expect(chores.map(\.isDone) == [false])
    }

    @Test("Parallel tests each see only their own stubs and recordings", arguments: 0..<32)
    func parallelIsolation(index: Int) async throws {
        let network = self.network
        network.stub(
            .get, "https://api.example.com/todos/\(index)", returning: Todo(id: index, title: "\(index)"))
        network.holdsReplies = index.isMultiple(of: 2)
        let loading = Task {
            await outcome { () async throws(NetworkError) -> Todo in
                try await network.get(urlString: "https://api.example.com/todos/\(index)")
            }
        }
        if network.holdsReplies {
            #expect(await waitForPendingRequests(network))
            try #require(network.pendingRequests.first).respond()
        }
        #expect(await loading.value.value == Todo(id: index, title: "\(index)"))
        #expect(network.recordedRequests.map(\.url.path) == ["/todos/\(index)"])
    }
}
