import Foundation
import NetworkLayer
import NetworkTestSupport
import Testing

@Suite("Pagination through Link headers")
struct PaginationSuite {
    @Test("loadAll() follows rel=next through the real pipeline")
    func followsNext() async throws {
        let stubs = StubTransport()
        stubTwoPages(stubs)
        let todos = try await AllTodosLoader(networkLayer: stubs.makeNetworkLayer()).loadAll()
        #expect(todos.map(\.id) == [1, 2])
        #expect(
            stubs.recordedRequests.map(\.url.absoluteString) == [
                "https://api.example.com/todos", "https://api.example.com/todos?page=2",
            ])
    }

    @Test("A response's links by relation")
    func relations() async throws {
        let stubs = StubTransport()
        stubTwoPages(stubs)
        let first = try await stubs.makeNetworkLayer().send(
            NetworkRequest<[Todo]>(urlString: "https://api.example.com/todos"))
        #expect(first.links["last"]?.absoluteString == "https://api.example.com/todos?page=2")
        #expect(first.links["prev"] == nil)
        #expect(first.links.all.map(\.relations) == [["next"], ["last"]])
    }
}
