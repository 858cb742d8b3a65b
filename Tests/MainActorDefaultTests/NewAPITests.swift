import Foundation
import NetworkLayer
import NetworkTestSupport
import Testing
import XCTest

// Issue 19's new APIs from a MainActor-default module: cancelAll(), links, per-request statuses and
// interceptors, Encodable queries and forms, download folders, the …IgnoringReply forms, and
// StubTransport.makeNetworkLayer with an environment.

nonisolated struct Filter: Encodable {
    let tags: [String]
    let page: Int
}

/// A main-actor model (the module's default) using the new APIs.
final class CatalogModel {
    let network: NetworkLayer
    private(set) var items: [Item] = []
    private(set) var lastError: NetworkError?
    private(set) var missing = false

    init(network: NetworkLayer) {
        self.network = network
    }

    func loadAllPages() async throws(NetworkError) {
        var next: URL? = URL(string: "https://api.example.com/items")
        while let url = next {
            var request = NetworkRequest<[Item]>(urlString: url.absoluteString)
            try request.addQuery(Filter(tags: ["a"], page: 1))
            let page = try await network.send(request)
            items += page.value
            next = page.links["next"]
        }
    }

    func checkArchive() {
        var request = NetworkRequest<Data>(urlString: "https://api.example.com/archive")
        request.acceptableStatusCodes = [200, 404]
        network.send(
            request, successHandler: { self.missing = $0.statusCode == 404 },
            errorHandler: { self.lastError = $0 })
    }

    func startLoading() {
        network.get(
            urlString: "https://api.example.com/items",
            successHandler: { (items: [Item]) in self.items = items },
            errorHandler: { self.lastError = $0 })
    }

    func signOut() {
        network.cancelAll()
    }

    func markSeen() async throws(NetworkError) {
        try await network.postIgnoringReply(
            urlString: "https://api.example.com/seen",
            body: ["ids": items.map(\.id)])
    }
}

@Suite("Issue 19's new APIs in a MainActor-default module")
struct NewAPISuite {
    @Test("Pages through Link headers with an Encodable query, through the real pipeline")
    func pagination() async throws {
        let stubs = StubTransport()
        stubs.stub(
            .get, .prefix("https://api.example.com/items?page=1"),
            with: .json([Item(id: 1)], headers: ["Link": "</items/2>; rel=next"]))
        stubs.stub(.get, .prefix("https://api.example.com/items/2"), with: .json([Item(id: 2)]))
        stubs.stub(.post, .any, with: StubResponse(status: 204))
        let model = CatalogModel(
            network: stubs.makeNetworkLayer(
                environment: APIEnvironment(baseURL: URL(string: "https://api.example.com")!)))
        try await model.loadAllPages()
        try await model.markSeen()
        #expect(model.items == [Item(id: 1), Item(id: 2)])
        #expect(stubs.recordedRequests.first?.url.query == "page=1&tags%5B%5D=a")
        #expect(stubs.recordedRequests.map(\.method) == [.get, .get, .post])
    }

    @Test("A 404 as a value, and cancelAll() on the dummy")
    func dummy() throws {
        let network = DummyNetworkLayer()
        network.stub(
            .get, "https://api.example.com/archive", returning: Data(), statusCode: 404, headers: [:])
        let model = CatalogModel(network: network)
        model.checkArchive()
        #expect(model.missing)

        network.holdsReplies = true
        model.startLoading()
        model.signOut()
        #expect(model.lastError?.description == "cancelled")
        #expect(network.pendingRequests.isEmpty)
    }

    @Test("A download creates its folders")
    func downloadFolders() throws {
        let network = DummyNetworkLayer()
        network.stub(.get, "https://api.example.com/export", returning: Data("x".utf8))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "MainActorDefault-\(UUID())")
        defer { try? FileManager.default.removeItem(at: folder) }
        var saved: URL?
        network.send(
            .download(
                urlString: "https://api.example.com/export",
                to: folder.appendingPathComponent("a/export.bin"),
                options: [.createIntermediateFolders]),
            successHandler: { saved = $0.value }, errorHandler: { _ in })
        #expect(saved?.lastPathComponent == "export.bin")
    }
}

/// The same from XCTest; why the synchronous test is `nonisolated`: see DummyLayerTests.swift.
final class NewAPITests: XCTestCase {
    nonisolated required init(name: String, testClosure: @escaping XCTestCaseClosure) {
        super.init(name: name, testClosure: testClosure)
    }

    nonisolated func testCancelAllAndAcceptedStatusesOnTheDummy() {
        MainActor.assumeIsolated {
            let network = DummyNetworkLayer()
            network.stub(
                .get, "https://api.example.com/archive", returning: Data(), statusCode: 404, headers: [:])
            let model = CatalogModel(network: network)
            model.checkArchive()
            XCTAssertTrue(model.missing)
            network.holdsReplies = true
            model.startLoading()
            model.signOut()
            XCTAssertEqual(model.lastError?.description, "cancelled")
        }
    }

    func testAFormBodyFromTheRealPipeline() async throws {
        let stubs = StubTransport()
        stubs.stub(.post, .any, with: .json([Item(id: 9)]))
        let request = NetworkRequest<[Item]>(
            method: .post, urlString: "https://api.example.com/search",
            body: try .urlEncodedForm(
                Filter(tags: ["x", "y"], page: 3), encoder: URLFormEncoder(arrayEncoding: .repeatedKey)))
        let items = try await stubs.makeNetworkLayer().send(request).value
        XCTAssertEqual(items, [Item(id: 9)])
        XCTAssertEqual(
            stubs.recordedRequests.first?.body.map { String(decoding: $0, as: UTF8.self) },
            "page=3&tags=x&tags=y")
    }
}
