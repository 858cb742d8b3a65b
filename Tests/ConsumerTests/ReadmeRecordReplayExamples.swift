import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

// The code of the README section "Record and replay", exactly as printed there (see ReadmeSyncTests).

// README: recording.

/// Records the app's requests against the dev server into a HAR file. Run it by hand (from a test you
/// run once, or a small tool), review the file, and commit it with the tests.
func recordTodoTraffic(from devServer: URL, session: String, into file: URL) async throws {
    let recorder = HARRecorder(redactedHeaders: ["X-Session"], redactedQueryItems: ["api_key"])
    let network = NetworkLayer(
        baseURL: devServer, defaultHeaders: ["X-Session": session], monitors: [recorder])

    let todos: [Todo] = try await network.get(urlString: "todos")
    try await network.postIgnoringReply(urlString: "todos", body: Todo(id: todos.count + 1, title: "Ship it"))

    // Monitors hear of a request after its handler ran: wait for both entries.
    await recorder.waitForEntries(2)
    try recorder.write(to: file)
}

// README: replaying.

final class TodoListReplayTests: XCTestCase {
    private func recording() throws -> HARArchive {
        let file = Bundle.module.url(forResource: "todos", withExtension: "har", subdirectory: "Fixtures")
        return try HARArchive(contentsOf: try XCTUnwrap(file))
    }

    func testLoadShowsTheRecordedTodos() throws {
        let stubs = StubTransport()
        let replay = stubs.replay(try recording())
        let view = SpyTodoListView()
        let shown = expectation(description: "todos shown")
        view.onUpdate = { shown.fulfill() }

        TodoListPresenter(view: view, networkLayer: stubs.makeNetworkLayer()).load()

        wait(for: [shown], timeout: 5)
        XCTAssertEqual(view.todos?.map(\.title), ["Write tests", "Ship it"])
        XCTAssertEqual(replay.failures, [])
    }

    func testTheSameRecordingThroughARealServer() async throws {
        let server = MockServer(replaying: try recording())
        try server.start()
        defer { server.stop() }

        let todos: [Todo] = try await NetworkLayer(baseURL: server.baseURL).get(urlString: "todos")

        XCTAssertEqual(todos.count, 2)
    }
}

// Not in the README: the recording helper, run against a MockServer standing in for the dev server.

final class RecordTodoTrafficTests: XCTestCase {
    func testTheRecordingHelperWritesAFileThatReplays() async throws {
        let devServer = MockServer { request in
            request.method == "POST"
                ? MockResponse(status: 201, headers: ["Content-Type": "application/json"], body: request.body)
                : try .json([Todo(id: 1, title: "Write tests")])
        }
        try devServer.start()
        defer { devServer.stop() }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID().uuidString).har")
        defer { try? FileManager.default.removeItem(at: file) }

        try await recordTodoTraffic(from: devServer.baseURL, session: "SECRET-SESSION", into: file)

        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        XCTAssertFalse(text.contains("SECRET-SESSION"))
        let archive = try HARArchive(contentsOf: file)
        XCTAssertEqual(archive.entries.map(\.request.method), ["GET", "POST"])
        let stubs = StubTransport()
        stubs.replay(archive)
        let network = stubs.makeNetworkLayer(baseURL: devServer.baseURL)
        let todos: [Todo] = try await network.get(urlString: "todos")
        let added: Todo = try await network.post(urlString: "todos", body: Todo(id: 2, title: "Ship it"))
        XCTAssertEqual(todos, [Todo(id: 1, title: "Write tests")])
        XCTAssertEqual(added, Todo(id: 2, title: "Ship it"))
    }
}
