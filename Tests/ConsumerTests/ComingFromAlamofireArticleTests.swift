import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Runs every sample of the "Coming from Alamofire" article against a MockServer (the dummy's test is the
/// article's own).
final class ComingFromAlamofireArticleTests: XCTestCase {
    private let todo = Todo(id: 1, title: "Port the app")

    func testThePortedPresenterLoadsAndAdds() throws {
        let server = try startServer()
        server.enqueue(try .json([todo]))
        server.enqueue(try .json(Todo(id: 2, title: "Ship it"), status: 201))
        server.enqueue(MockResponse(status: 422))
        let view = SpyTodoListView()
        let presenter = TodoBoardPresenter(view: view, networkLayer: NetworkLayer(baseURL: server.baseURL))

        expectUpdate(of: view) { presenter.load() }
        XCTAssertEqual(view.todos, [todo])
        expectUpdate(of: view) { presenter.add(Todo(id: 2, title: "Ship it")) }
        XCTAssertEqual(view.todos, [Todo(id: 2, title: "Ship it")])
        expectUpdate(of: view) { presenter.load() }
        XCTAssertEqual(view.errorMessage?.contains("422"), true, "validated without asking")
        XCTAssertEqual(server.recordedRequests.map(\.method), ["GET", "POST", "GET"])
    }

    func testThePortedPresentersAsyncFormReturnsTheTodos() async throws {
        let server = try startServer()
        server.enqueue(try .json([todo]))
        let presenter = TodoBoardPresenter(
            view: SpyTodoListView(), networkLayer: NetworkLayer(baseURL: server.baseURL))
        let todos = try await presenter.todos()
        XCTAssertEqual(todos, [todo])
    }

    func testTheSessionsInterceptorsRetryAConflictAndTheMonitorReportsIt() throws {
        let server = try startServer()
        server.enqueue(MockResponse(status: 409))
        server.enqueue(try .json([todo]))
        let reported = expectation(description: "slow request reported")
        let lines = ReportedLines()
        let network = ComingFromAlamofireSnippets.makeNetworkLayer(baseURL: server.baseURL) { line in
            lines.append(line)
            reported.fulfill()
        }
        let answered = expectation(description: "answered")
        network.get(
            urlString: "todos", successHandler: { (todos: [Todo]) in answered.fulfill() },
            errorHandler: { error in XCTFail(error.message) })
        wait(for: [answered, reported], timeout: 10)

        XCTAssertEqual(lines.lines, ["GET /todos took 2 attempt(s)"])
        XCTAssertEqual(server.recordedRequests.map { $0.header("X-App-Version") }, ["3.2", "3.2"])
    }

    func testTheDownloadAndTheUploadReachTheServer() throws {
        let server = try startServer()
        let pdf = Data("%PDF-1.7 report".utf8)
        server.handler = { request in
            request.method == "GET" ? MockResponse(body: pdf) : try .json(StoredDocument(id: 7), status: 201)
        }
        let folder = try temporaryFolder()
        var shown: [String] = []
        let finished = expectation(description: "both finished")
        finished.expectedFulfillmentCount = 2
        ComingFromAlamofireSnippets.transfer(
            NetworkLayer(baseURL: server.baseURL), report: pdf,
            to: folder.appendingPathComponent("report.pdf")
        ) { line in
            shown.append(line)
            if line.hasPrefix("saved") || line.hasPrefix("stored") { finished.fulfill() }
        }
        wait(for: [finished], timeout: 10)

        XCTAssertTrue(shown.contains("saved report.pdf"), "\(shown)")
        XCTAssertTrue(shown.contains("stored #7"), "\(shown)")
        XCTAssertTrue(shown.contains("\(pdf.count) bytes"), "progress: \(shown)")
        XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent("report.pdf")), pdf)
        let upload = try XCTUnwrap(server.recordedRequests.first { $0.method == "POST" })
        XCTAssertTrue(String(decoding: upload.body, as: UTF8.self).contains("Quarterly report"))
    }

    func testTheStreamShowsEachEvent() throws {
        let server = try startServer()
        let events = [ServerSentEvent(data: "Hello"), ServerSentEvent(data: "world")]
        server.enqueue(.serverSentEvents(events, ending: .stall))
        var shown: [String] = []
        let both = expectation(description: "two events")
        both.expectedFulfillmentCount = 2
        let task = ComingFromAlamofireSnippets.follow(NetworkLayer(baseURL: server.baseURL)) { line in
            shown.append(line)
            both.fulfill()
        }
        wait(for: [both], timeout: 10)
        task.cancel()
        XCTAssertEqual(shown, ["Hello", "world"])
    }

    func testTheCacheKeepsRepliesButNotTheNoStoreOne() throws {
        let server = try startServer()
        server.handler = { request in
            try MockResponse.json(ComingFromAlamofireSnippets.Balance(cents: 100)).cacheControl("max-age=60")
        }
        let (network, balance) = ComingFromAlamofireSnippets.cachedLayer(
            baseURL: server.baseURL, cacheFolder: try temporaryFolder())
        let stored = NetworkRequest<ComingFromAlamofireSnippets.Balance>(urlString: "stored")
        var statuses: [CacheStatus] = []
        for request in [balance, balance, stored, stored] {
            let answered = expectation(description: "answered")
            network.send(request) { result in
                statuses.append((try? result.get())?.cacheStatus ?? .network)
                answered.fulfill()
            }
            wait(for: [answered], timeout: 10)
        }
        XCTAssertEqual(statuses, [.network, .network, .network, .hit])
        XCTAssertEqual(server.recordedRequests.map(\.path), ["/balance", "/balance", "/stored"])
    }

    // MARK: - Support

    private func startServer() throws -> MockServer {
        let server = MockServer()
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    private func temporaryFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ComingFrom-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: folder) }
        return folder
    }

    private func expectUpdate(of view: SpyTodoListView, _ action: () -> Void) {
        let updated = expectation(description: "view updated")
        view.onUpdate = { updated.fulfill() }
        action()
        wait(for: [updated], timeout: 10)
    }
}

/// The article's presenter test, verbatim: the dummy instead of a URLProtocol stub.
final class TodoBoardPresenterTests: XCTestCase {
    func testLoadShowsTheTodos() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        let view = SpyTodoListView()
        network.stub(.get, "/todos", returning: [Todo(id: 1, title: "Port the app")])

        TodoBoardPresenter(view: view, networkLayer: network).load()

        // No expectation, no URLProtocol: the dummy answers before load() returns.
        XCTAssertEqual(view.todos, [Todo(id: 1, title: "Port the app")])
        XCTAssertEqual(network.recordedRequests.first?.url.path, "/todos")
    }
}

/// What a monitor reports from the monitors' queue; read once the test has waited for it.
final class ReportedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []  // guarded by `lock`

    var lines: [String] { lock.withLock { stored } }

    func append(_ line: String) {
        lock.withLock { stored.append(line) }
    }
}
