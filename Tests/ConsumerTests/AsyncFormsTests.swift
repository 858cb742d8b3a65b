import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// The async forms from each kind of caller, answered by the real pipeline (through `StubTransport`)
/// and by `DummyNetworkLayer`, which overrides only the funnel.
final class AsyncFormsTests: XCTestCase {
    private let base = URL(string: "https://api.example.com/v1/")

    private func stubbedLayer(_ stubs: StubTransport) -> NetworkLayer {
        let todo = Todo(id: 3, title: "New")
        stubs.stub(.get, .path("/v1/todos"), with: .json([todo, todo]))
        stubs.stub(.post, .path("/v1/todos"), with: .json(todo))
        stubs.stub(nil, .path("/v1/todos/3/seen"), with: StubResponse(status: 204))
        stubs.stub(nil, .path("/v1/todos/3"), with: .json(todo))
        stubs.stub(.get, .path("/v1/notes"), with: .json([Note(id: 1, text: "one")]))
        stubs.stub(.delete, .path("/v1/notes"), with: StubResponse(status: 204))
        return stubs.makeNetworkLayer(baseURL: base)
    }

    private let expectedLog = [
        "get 2", "post New", "post", "put 3", "put", "patch New", "patch", "delete 3", "delete",
        "request 1", "request", "send 200 2",
    ]

    func testEveryFormFromANonisolatedFunctionThroughTheRealPipeline() async throws {
        let stubs = StubTransport()
        let log = try await callEveryAsyncForm(on: stubbedLayer(stubs))
        XCTAssertEqual(log, expectedLog)
        XCTAssertEqual(
            stubs.recordedRequests.map(\.method),
            [.get, .post, .post, .put, .put, .patch, .patch, .delete, .delete, .get, .delete, .get])
        XCTAssertEqual(try stubs.recordedRequests[1].decodedBody(as: Todo.self).title, "New")
    }

    func testEveryFormAnsweredByTheDummy() async throws {
        let network = DummyNetworkLayer(baseURL: base)
        let todo = Todo(id: 3, title: "New")
        network.stub(.get, "todos", returning: [todo, todo])
        network.stub(.post, "todos", returning: todo)
        for method in [HTTPMethod.put, .patch, .delete] {
            network.stub(method, "todos/3", returning: todo)
        }
        network.stub(.get, "notes", returning: [Note(id: 1, text: "one")])
        let log = try await callEveryAsyncForm(on: network)
        XCTAssertEqual(log, expectedLog)
        XCTAssertEqual(network.recordedRequests.count, 12)
        XCTAssertEqual(
            network.recordedRequests[0].url.absoluteString, "https://api.example.com/v1/todos?page=1")
    }

    func testAnErrorIsThrownAsTheNetworkErrorTheHandlerWouldGet() async {
        let stubs = StubTransport()
        stubs.stub(.get, .any, with: StubResponse(status: 503, body: Data("down".utf8)))
        let network = stubs.makeNetworkLayer(baseURL: base)
        do {
            let _: [Todo] = try await network.get(urlString: "todos")
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error.statusCode, 503)
            XCTAssertEqual(error.responseBody, Data("down".utf8))
        }
    }

    func testARefusedRequestThrowsWithoutSending() async {
        let network = DummyNetworkLayer()
        do {
            try await network.deleteIgnoringReply(urlString: "relative/without/base")
            XCTFail("expected an error")
        } catch {
            guard case .invalidURL("relative/without/base") = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(network.refusedRequests.count, 1)
        XCTAssertTrue(network.recordedRequests.isEmpty)
    }

    func testSendReturnsTheWholeResponse() async throws {
        let stubs = StubTransport()
        stubs.stub(.get, .any, with: .json([Todo(id: 1, title: "A")], headers: ["X-Total-Count": "42"]))
        let response = try await stubs.makeNetworkLayer().send(
            NetworkRequest<[Todo]>(urlString: "https://api.example.com/todos"))
        XCTAssertEqual(response.headers["x-total-count"], "42")
        XCTAssertEqual(response.value, [Todo(id: 1, title: "A")])
        XCTAssertEqual(response.url?.absoluteString, "https://api.example.com/todos")
    }

    func testAnActorKeepsItsRequestAndItsNotes() async throws {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.stub(.get, "notes", returning: [Note(id: 1, text: "first")])
        let texts = try await NotesStore(network: network).refresh()
        XCTAssertEqual(texts, ["first", "first"])
        XCTAssertEqual(network.recordedRequests.map(\.method), [.get, .get, .delete])
    }
}

/// The same from a main-actor test: the model keeps its request in a property.
@MainActor
final class MainActorAsyncFormsTests: XCTestCase {
    func testAMainActorModelSendsTheRequestItKeeps() async throws {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.stub(.post, "notes/search", returning: [Note(id: 1, text: "one")])
        network.stub(.get, "notes", returning: [Note(id: 3, text: "three")])
        let model = NotesScreenModel(network: network)
        try await model.load()
        XCTAssertEqual(model.notes.map(\.text), ["one"])
        XCTAssertEqual(try network.recordedRequests[0].decodedBody(as: [String: Int].self), ["since": 1])
        let count = try await model.loadWithoutKeepingTheRequest()
        XCTAssertEqual(count, 1)
        XCTAssertEqual(model.notes.map(\.text), ["three"])
    }

    func testTheRealPipelineResumesTheMainActor() async throws {
        let stubs = StubTransport()
        stubs.stub(.post, .any, with: .json([Note(id: 2, text: "two")]))
        let model = NotesScreenModel(network: stubs.makeNetworkLayer(baseURL: URL(string: "https://x.test")))
        try await model.load()
        XCTAssertEqual(model.notes.map(\.id), [2])
    }
}
