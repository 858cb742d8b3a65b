import Foundation
import NetworkLayer
import NetworkTestSupport
import Testing

@Suite("Encodable query and form bodies")
struct FormEncodingSuite {
    @Test("Through the real pipeline, with dates and repeated keys")
    func realPipeline() async throws {
        let stubs = StubTransport()
        stubs.stub(nil, .any, with: .json([Todo(id: 5, title: "Five")]))
        let network = stubs.makeNetworkLayer()
        var request = NetworkRequest<[Todo]>(urlString: "https://api.example.com/todos")
        let filter = TodoFilter(
            status: ["open"], due: Date(timeIntervalSince1970: 0), unread: false, page: 1)
        try request.addQuery(filter, encoder: URLFormEncoder(arrayEncoding: .repeatedKey))
        let todos = try await network.send(request).value
        #expect(todos.map(\.id) == [5])
        #expect(
            stubs.recordedRequests.first?.url.query
                == "due=1970-01-01T00%3A00%3A00Z&page=1&status=open&unread=false")
    }
}
