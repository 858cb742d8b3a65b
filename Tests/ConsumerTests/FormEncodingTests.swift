import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A search screen's filter, sent as a query and, to the legacy endpoint, as a form.
struct TodoFilter: Encodable {
    var status: [String]
    var due: Date?
    var unread: Bool
    var page: Int
}

final class TodoSearchPresenter {
    private let networkLayer: NetworkLayer
    private(set) var results: [Todo] = []
    private(set) var errorMessage: String?

    init(networkLayer: NetworkLayer) {
        self.networkLayer = networkLayer
    }

    func search(_ filter: TodoFilter) {
        var request = NetworkRequest<[Todo]>(urlString: "https://api.example.com/todos")
        do {
            try request.addQuery(filter)
        } catch {
            errorMessage = error.message
            return
        }
        networkLayer.send(
            request, successHandler: { self.results = $0.value },
            errorHandler: { self.errorMessage = $0.message })
    }

    func legacySearch(_ filter: TodoFilter) throws(NetworkError) {
        let request = NetworkRequest<[Todo]>(
            method: .post, urlString: "https://legacy.example.com/search.php",
            body: try .urlEncodedForm(filter, encoder: URLFormEncoder(boolEncoding: .numeric)))
        networkLayer.send(
            request, successHandler: { self.results = $0.value },
            errorHandler: { self.errorMessage = $0.message })
    }
}

/// Issue 19: `Encodable` query parameters and form bodies, recorded as the real layer sends them.
final class FormEncodingTests: XCTestCase {
    private let filter = TodoFilter(status: ["open", "blocked"], due: nil, unread: true, page: 2)

    func testTheFilterBecomesTheQuery() {
        let network = DummyNetworkLayer()
        network.successResponse = [Todo(id: 1, title: "One")]
        let presenter = TodoSearchPresenter(networkLayer: network)
        presenter.search(filter)
        XCTAssertEqual(presenter.results.map(\.id), [1])
        XCTAssertEqual(
            network.recordedRequests.first?.url.absoluteString,
            "https://api.example.com/todos?page=2&status%5B%5D=open&status%5B%5D=blocked&unread=true")
    }

    func testTheSameFilterAsAFormBody() throws {
        let network = DummyNetworkLayer()
        network.successResponse = [Todo]()
        try TodoSearchPresenter(networkLayer: network).legacySearch(filter)
        let sent = try XCTUnwrap(network.recordedRequests.first)
        XCTAssertEqual(sent.header("Content-Type"), "application/x-www-form-urlencoded; charset=utf-8")
        XCTAssertEqual(
            sent.body.map { String(decoding: $0, as: UTF8.self) },
            "page=2&status%5B%5D=open&status%5B%5D=blocked&unread=1")
    }
}
