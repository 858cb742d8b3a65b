import Foundation
import NetworkLayer
import NetworkTestSupport
import Testing

/// Recording and replaying HAR files in Swift Testing, in parallel: each test has its own recorder,
/// transport and servers.
@Suite("HAR record and replay")
struct HARSuite {
    private static func browserExport() throws -> HARArchive {
        let url = try #require(
            Bundle.module.url(forResource: "todos", withExtension: "har", subdirectory: "Fixtures"))
        return try HARArchive(contentsOf: url)
    }

    @Test("A browser's export replays through StubTransport", arguments: 0..<4)
    func browserExportThroughStubTransport(run: Int) async throws {
        let stubs = StubTransport()
        let replay = stubs.replay(try Self.browserExport())
        let session = await TodoSession.play(
            on: stubs.makeNetworkLayer(baseURL: URL(string: "https://api.example.com")))
        #expect(session == TodoSession.expected)
        #expect(replay.failures.isEmpty)
    }

    @Test("A browser's export replays through MockServer")
    func browserExportThroughMockServer() async throws {
        let server = MockServer(replaying: try Self.browserExport())
        try server.start()
        defer { server.stop() }
        let session = await TodoSession.play(on: NetworkLayer(baseURL: server.baseURL, timeout: 10))
        #expect(session == TodoSession.expected)
    }

    @Test("Recorded traffic replays with the same results", arguments: 0..<4)
    func recordThenReplay(run: Int) async throws {
        let server = try HARRecorderTests.startTodoServer()
        defer { server.stop() }
        let recorder = HARRecorder(redactedQueryItems: ["page"])
        let live = await TodoSession.play(
            on: NetworkLayer(
                baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 10, monitors: [recorder]))
        #expect(await recorder.waitForEntries(7))
        let archive = try HARArchive(data: try recorder.archive.jsonData())
        #expect(archive.entries[1].request.url.hasSuffix("page=%3Credacted%3E"))

        let replaying = MockServer(replaying: archive)
        try replaying.start()
        defer { replaying.stop() }
        #expect(await TodoSession.play(on: NetworkLayer(baseURL: replaying.baseURL, timeout: 10)) == live)
    }

    @Test("A request the archive does not have fails naming the closest entries")
    func unmatched() async throws {
        let stubs = StubTransport()
        let replay = stubs.replay(try Self.browserExport())
        let network = stubs.makeNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        let result = await outcome { () async throws(NetworkError) -> Todo in
            try await network.post(urlString: "todos/3", body: Todo(id: 3, title: "Buy oat milk"))
        }
        #expect(result.value == nil)
        #expect(
            replay.failures.first?.contains("#4 GET https://api.example.com/todos/3 (other method)") == true)
    }
}
