import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A recording of a paginated API on api.example.com with a redirect: every URL in it is absolute and
/// names the recorded host.
func paginatedRecording() throws -> HARArchive {
    func entry(
        _ method: String, _ url: String, status: Int = 200, headers: [HARArchive.Header] = [],
        todos: [Todo] = []
    ) throws -> HARArchive.Entry {
        HARArchive.Entry(
            startedDateTime: Date(timeIntervalSince1970: 0),
            request: HARArchive.Request(method: method, url: url),
            response: HARArchive.Response(
                status: status, headers: headers,
                content: HARArchive.Content(
                    data: try JSONEncoder().encode(todos), mimeType: "application/json")))
    }
    return HARArchive(entries: [
        try entry(
            "GET", "https://api.example.com/todos",
            headers: [
                HARArchive.Header(
                    name: "Link",
                    value:
                        #"<https://api.example.com/todos?page=2>; rel="next", <https://other.example/x>; rel=help"#
                ),
                HARArchive.Header(
                    name: "Content-Location", value: "https://API.example.com:443/todos?page=1"),
            ],
            todos: [Todo(id: 1, title: "One")]),
        try entry("GET", "https://api.example.com/todos?page=2", todos: [Todo(id: 2, title: "Two")]),
        try entry(
            "GET", "https://api.example.com/old-todos", status: 301,
            headers: [HARArchive.Header(name: "Location", value: "https://api.example.com/todos?page=2")]),
    ])
}

/// Issue 19: HAR replay through `MockServer` points the recorded origin in `Location`, `Link` and
/// `Content-Location` at the server itself.
final class HAROriginRewriteTests: XCTestCase {
    func testLinksAndRedirectsComeBackToTheServer() async throws {
        let server = MockServer(replaying: try paginatedRecording())
        try server.start()
        defer { server.stop() }
        let network = NetworkLayer(baseURL: server.baseURL, timeout: 10)

        let todos = try await AllTodosLoader(networkLayer: network).loadAll(from: server.baseURL)
        XCTAssertEqual(todos.map(\.id), [1, 2])

        let first = try await network.send(NetworkRequest<[Todo]>(urlString: "todos"))
        XCTAssertEqual(first.links["next"], server.url("/todos?page=2"))
        XCTAssertEqual(first.links["help"]?.absoluteString, "https://other.example/x", "another origin stays")
        XCTAssertEqual(first.headers["Content-Location"], server.url("/todos?page=1")?.absoluteString)

        let moved = try await network.send(NetworkRequest<[Todo]>(urlString: "old-todos"))
        XCTAssertEqual(moved.value.map(\.id), [2], "the redirect was followed to the server")
        XCTAssertEqual(
            server.recordedRequests.map(\.path), ["/todos", "/todos", "/todos", "/old-todos", "/todos"])
    }
}
