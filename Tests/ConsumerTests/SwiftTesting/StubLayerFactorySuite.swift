import Foundation
import NetworkLayer
import NetworkTestSupport
import Testing

@Suite("StubTransport.makeNetworkLayer with every parameter")
struct StubLayerFactorySuite {
    @Test("Environment, retry policy and monitors through the stubbed pipeline")
    func everyParameter() async throws {
        let stubs = StubTransport()
        stubs.stub(.get, .path("/v2/todos"), with: .json([Todo(id: 2, title: "Two")]))
        let monitor = FinishCounter()
        let network = stubs.makeNetworkLayer(
            environment: APIEnvironment(baseURL: URL(string: "https://staging.example.com/v2/")!),
            callbackQueue: DispatchQueue(label: "callbacks"), timeout: 5, redirectPolicy: .default,
            retryPolicy: .default, monitors: [monitor])
        let todos: [Todo] = try await network.get(urlString: "todos")
        #expect(todos.map(\.id) == [2])
        #expect(stubs.recordedRequests.map(\.url.absoluteString) == ["https://staging.example.com/v2/todos"])
    }
}
