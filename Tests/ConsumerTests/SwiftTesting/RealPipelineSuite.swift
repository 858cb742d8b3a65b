import Foundation
import NetworkLayer
import NetworkTestSupport
import Testing

/// `StubTransport` and `MockServer` in Swift Testing, in parallel: each test has its own transport or
/// server, and nothing is shared between them.
@Suite("StubTransport and MockServer")
struct RealPipelineSuite {
    @Test("StubTransport answers the async forms through the real pipeline", arguments: 0..<16)
    func stubTransportInParallel(index: Int) async throws {
        let stubs = StubTransport()
        stubs.stub(.get, .path("/todos"), with: .json([Todo(id: index, title: "\(index)")]))
        let network = stubs.makeNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        let todos: [Todo] = try await network.get(urlString: "todos", query: ["i": "\(index)"])
        #expect(todos == [Todo(id: index, title: "\(index)")])
        #expect(stubs.recordedRequests.map(\.url.query) == ["i=\(index)"])
    }

    @Test("StubTransport serves a fixture file as JSON")
    func stubTransportFixture() async throws {
        let url = try #require(
            Bundle.module.url(forResource: "todos", withExtension: "json", subdirectory: "Fixtures"))
        let stubs = StubTransport()
        stubs.stub(.get, .any, with: .file(url))
        var request = NetworkRequest<[Todo]>(urlString: "https://api.example.com/todos")
        request.acceptableContentTypes = ["application/json"]
        let response = try await stubs.makeNetworkLayer().send(request)
        #expect(response.value.count == 2)
    }

    @Test("MockServer answers the async forms", arguments: 0..<8)
    func mockServerInParallel(index: Int) async throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        server.enqueue(try .json(Todo(id: index, title: "\(index)")))
        server.enqueue(MockResponse(status: 204))
        let network = NetworkLayer(baseURL: server.baseURL, timeout: 10)
        let todo: Todo = try await network.post(urlString: "todos", body: Todo(id: index, title: "new"))
        try await network.deleteIgnoringReply(urlString: "todos/\(index)")
        #expect(todo.id == index)
        #expect(server.recordedRequests.map(\.path) == ["/todos", "/todos/\(index)"])
        #expect(try server.recordedRequests[0].decodedBody(as: Todo.self).title == "new")
    }

    @Test("Cancelling the task cancels a request the server stalls on")
    func cancelStalledRequest() async throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        server.enqueue(MockResponse().withFault(.stall))
        let network = NetworkLayer(baseURL: server.baseURL, timeout: 30)
        let loading = Task {
            await outcome { () async throws(NetworkError) -> [Todo] in
                try await network.get(urlString: "todos")
            }
        }
        #expect(await nextRequest(to: server)?.path == "/todos")
        loading.cancel()
        #expect(await loading.value.isCancelled)
    }

    @Test("A MockServer fixture file is sent as JSON")
    func mockServerFixture() async throws {
        let url = try #require(
            Bundle.module.url(forResource: "todos", withExtension: "json", subdirectory: "Fixtures"))
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        server.enqueue(try .file(url))
        let network = NetworkLayer(baseURL: server.baseURL, timeout: 10)
        let response = try await network.send(NetworkRequest<[Todo]>(urlString: "todos"))
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.value.map(\.title) == ["Write tests", "Ship it"])
    }
}
