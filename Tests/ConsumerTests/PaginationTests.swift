import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Loads every page of a paginated API by following `Link: <...>; rel="next"` until there is none.
final class AllTodosLoader {
    private let networkLayer: NetworkLayer
    private(set) var todos: [Todo] = []
    private(set) var pages = 0

    init(networkLayer: NetworkLayer) {
        self.networkLayer = networkLayer
    }

    func load(from urlString: String, completion: @escaping () -> Void) {
        networkLayer.send(NetworkRequest<[Todo]>(urlString: urlString)) { result in
            guard let page = try? result.get() else { return completion() }
            self.todos += page.value
            self.pages += 1
            guard let next = page.links["next"] else { return completion() }
            self.load(from: next.absoluteString, completion: completion)
        }
    }

    func loadAll(from api: URL? = URL(string: "https://api.example.com/")) async throws(NetworkError)
        -> [Todo]
    {
        var all: [Todo] = []
        var next: URL? = api?.appendingPathComponent("todos")
        while let url = next {
            let page = try await networkLayer.send(NetworkRequest<[Todo]>(urlString: url.absoluteString))
            all += page.value
            next = page.links["next"]
        }
        return all
    }
}

/// Two pages joined by an RFC 8288 `Link` header, the second with a relative reference.
func stubTwoPages(_ stubs: StubTransport) {
    stubs.stub(
        .get, .exact("https://api.example.com/todos"),
        with: .json(
            [Todo(id: 1, title: "One")],
            headers: ["Link": #"</todos?page=2>; rel="next", </todos?page=2>; rel="last""#]))
    stubs.stub(
        .get, .exact("https://api.example.com/todos?page=2"),
        with: .json([Todo(id: 2, title: "Two")], headers: ["Link": #"</todos>; rel="first""#]))
}

final class PaginationTests: XCTestCase {
    func testFollowingNextLinksWithHandlers() {
        let stubs = StubTransport()
        stubTwoPages(stubs)
        let loader = AllTodosLoader(networkLayer: stubs.makeNetworkLayer())
        let done = expectation(description: "every page loaded")
        loader.load(from: "https://api.example.com/todos") { done.fulfill() }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(loader.todos.map(\.id), [1, 2])
        XCTAssertEqual(loader.pages, 2)
        XCTAssertEqual(stubs.recordedRequests.count, 2)
    }

    func testFollowingNextLinksWithTheDummy() {
        let network = DummyNetworkLayer()
        network.stub(
            .get, "https://api.example.com/todos", returning: [Todo(id: 1, title: "One")], statusCode: 200,
            headers: ["Link": "<https://api.example.com/todos?page=2>; rel=next"])
        network.stub(.get, "https://api.example.com/todos?page=2", returning: [Todo(id: 2, title: "Two")])
        let loader = AllTodosLoader(networkLayer: network)
        loader.load(from: "https://api.example.com/todos") {}
        XCTAssertEqual(loader.todos.map(\.id), [1, 2])
    }
}
