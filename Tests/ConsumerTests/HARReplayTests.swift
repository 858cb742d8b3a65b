import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Replaying HAR files through `StubTransport` and `MockServer` with the real layer: a browser's export,
/// the order of repeated requests, body matching, and the message of a request nothing matches.
final class HARReplayTests: XCTestCase {
    private let api = URL(string: "https://api.example.com/")!

    func testABrowserExportReplaysThroughStubTransport() async throws {
        let stubs = StubTransport()
        let replay = stubs.replay(try HARArchive(contentsOf: try harFixture("todos")))
        let session = await TodoSession.play(on: stubs.makeNetworkLayer(baseURL: api))
        XCTAssertEqual(session, TodoSession.expected)
        XCTAssertEqual(replay.failures, [])
        XCTAssertEqual(replay.unplayedEntries.map(\.request.url), [])
    }

    func testABrowserExportReplaysThroughMockServer() async throws {
        let server = MockServer(replaying: try HARArchive(contentsOf: try harFixture("todos")))
        try server.start()
        defer { server.stop() }
        let session = await TodoSession.play(on: NetworkLayer(baseURL: server.baseURL, timeout: 10))
        XCTAssertEqual(session, TodoSession.expected)
        XCTAssertEqual(
            server.recordedRequests.map { "\($0.method) \($0.path)" },
            [
                "GET /todos", "GET /todos", "POST /todos", "GET /todos/3", "DELETE /todos/3", "GET /todos/3",
                "GET /avatar.png",
            ])
    }

    func testTheArchiveReadsWhatBrowsersAddAndToleratesWhatTheyLeaveOut() throws {
        let archive = try HARArchive(contentsOf: try harFixture("todos"))
        XCTAssertEqual(archive.version, "1.2")
        XCTAssertEqual(archive.creator, HARArchive.Creator(name: "WebInspector", version: "537.36"))
        XCTAssertEqual(archive.entries.count, 7)
        let first = archive.entries[0]
        XCTAssertEqual(first.startedDateTime, Date(timeIntervalSince1970: 1_777_627_800.125))
        XCTAssertEqual(first.timings.dns, -1)
        XCTAssertEqual(first.timings.wait, 44.6)
        XCTAssertEqual(first.time, 48.21)
        XCTAssertEqual(first.request.queryString, [])
        XCTAssertEqual(first.response.header("Content-Encoding"), "gzip")
        XCTAssertEqual(
            archive.entries[1].request.queryString,
            [HARArchive.Header(name: "page", value: "2"), HARArchive.Header(name: "limit", value: "2")])
        let deletion = archive.entries[4]
        XCTAssertEqual(deletion.request.headers, [])
        XCTAssertEqual(deletion.response.content.data, Data())
        XCTAssertEqual(deletion.time, 0, "no timings: nothing known")
        XCTAssertEqual(
            archive.entries[5].startedDateTime, Date(timeIntervalSince1970: 1_777_627_805),
            "no fraction, an offset")
        XCTAssertEqual(archive.entries[6].response.content.encoding, "base64")
        XCTAssertEqual(archive.entries[6].response.content.data.count, 70)
    }

    func testRepeatedRequestsReplayInOrderThenTheLastRepeats() async throws {
        let stubs = StubTransport()
        let replay = stubs.replay(try HARArchive(contentsOf: try harFixture("todos")))
        let network = stubs.makeNetworkLayer(baseURL: api)
        var statuses: [Int] = []
        for _ in 0..<3 {
            let response = await outcome { () async throws(NetworkError) -> NetworkResponse<Data> in
                try await network.send(NetworkRequest<Data>(urlString: "todos/3"))
            }
            switch response {
            case .success(let reply): statuses.append(reply.statusCode)
            case .failure(let error): statuses.append(error.statusCode ?? 0)
            }
        }
        XCTAssertEqual(statuses, [200, 404, 404])
        XCTAssertEqual(
            replay.unplayedEntries.map { "\($0.request.method) \($0.request.url)" },
            [
                "GET https://api.example.com/todos", "GET https://api.example.com/todos?page=2&limit=2",
                "POST https://api.example.com/todos", "DELETE https://api.example.com/todos/3",
                "GET https://api.example.com/avatar.png",
            ])
    }

    func testAnUnmatchedRequestThroughStubTransportNamesTheClosestEntries() async throws {
        let stubs = StubTransport()
        let replay = stubs.replay(try HARArchive(contentsOf: try harFixture("todos")))
        let network = stubs.makeNetworkLayer(baseURL: api)
        let page = await outcome { () async throws(NetworkError) -> [Todo] in
            try await network.get(urlString: "todos", query: ["page": "3", "limit": "2"])
        }
        guard case .failure(.transport(let error)) = page else { return XCTFail("\(page)") }
        // The error handed out has its URLs' query values redacted, as every error of the layer does;
        // the replay keeps the full text.
        let redacted = try XCTUnwrap(error.userInfo[NSLocalizedDescriptionKey] as? String)
        XCTAssertTrue(redacted.contains("(other query)"), redacted)
        XCTAssertFalse(redacted.contains("page=3"), redacted)
        let message = try XCTUnwrap(replay.failures.last)
        XCTAssertTrue(
            message.hasPrefix("HAR replay: no entry matches GET https://api.example.com/todos?"), message)
        XCTAssertTrue(
            message.contains("#2 GET https://api.example.com/todos?page=2&limit=2 (other query)"), message)
        XCTAssertTrue(message.contains("#1 GET https://api.example.com/todos (other query)"), message)
        XCTAssertTrue(
            message.contains("#3 POST https://api.example.com/todos (other method, other query)"), message)

        let put = await outcome { () async throws(NetworkError) in
            try await network.putIgnoringReply(urlString: "todos/3", body: Todo(id: 3, title: "Buy oat milk"))
        }
        XCTAssertNil(put.value)
        XCTAssertTrue(
            replay.failures.last?.contains("#4 GET https://api.example.com/todos/3 (other method)") == true,
            replay.failures.last ?? "no failure")

        let elsewhere = await outcome { () async throws(NetworkError) -> [Todo] in
            try await network.get(urlString: "https://other.example.com/todos")
        }
        XCTAssertNil(elsewhere.value)
        XCTAssertTrue(
            replay.failures.last?.contains("#1 GET https://api.example.com/todos (other host)") == true)
        XCTAssertEqual(replay.failures.count, 3)
    }

    func testAnUnmatchedRequestThroughMockServerIsA500NamingTheClosestEntries() async throws {
        let server = MockServer(replaying: try HARArchive(contentsOf: try harFixture("todos")))
        try server.start()
        defer { server.stop() }
        let network = NetworkLayer(baseURL: server.baseURL, timeout: 10)
        let missing = await outcome { () async throws(NetworkError) -> [Todo] in
            try await network.get(urlString: "todoz")
        }
        guard case .failure(let error) = missing else { return XCTFail("\(missing)") }
        XCTAssertEqual(error.statusCode, 500)
        let message = String(decoding: error.responseBody ?? Data(), as: UTF8.self)
        XCTAssertTrue(message.hasPrefix("HAR replay: no entry matches GET /todoz"), message)
        XCTAssertTrue(message.contains("No entry has the path /todoz. Entries:"), message)
        XCTAssertTrue(message.contains("#1 GET https://api.example.com/todos"), message)
        XCTAssertTrue(message.contains("… and 2 more"), message)
    }

    func testBodiesMatchWhenAskedInAnyKeyOrder() async throws {
        let archive = HARArchive(entries: [
            Self.entry(
                "POST", "https://api.example.com/todos", body: #"{"id":1,"title":"A"}"#, reply: "first"),
            Self.entry(
                "POST", "https://api.example.com/todos", body: #"{"id":2,"title":"B"}"#, reply: "second"),
        ])
        let byBody = StubTransport()
        let replay = byBody.replay(archive, matchingBody: true)
        let inOrder = StubTransport()
        inOrder.replay(archive)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func post(_ todo: Todo, to stubs: StubTransport) async -> String? {
            await outcome { () async throws(NetworkError) -> [String] in
                try await stubs.makeNetworkLayer(baseURL: self.api, encoder: encoder).post(
                    urlString: "todos", body: todo)
            }.value?.first
        }
        let second = Todo(id: 2, title: "B")
        let first = Todo(id: 1, title: "A")
        let byBodyReplies = [await post(second, to: byBody), await post(first, to: byBody)]
        XCTAssertEqual(byBodyReplies, ["second", "first"])
        let inOrderReplies = [await post(second, to: inOrder), await post(first, to: inOrder)]
        XCTAssertEqual(inOrderReplies, ["first", "second"])
        let unmatched = await post(Todo(id: 3, title: "C"), to: byBody)
        XCTAssertNil(unmatched)
        let message = try XCTUnwrap(replay.failures.first)
        XCTAssertTrue(message.contains("#1 POST https://api.example.com/todos (other body)"), message)
        XCTAssertTrue(message.contains("#2 POST https://api.example.com/todos (other body)"), message)
    }

    func testALaterStubOverridesARecordedAnswer() async throws {
        let stubs = StubTransport()
        stubs.replay(try HARArchive(contentsOf: try harFixture("todos")))
        stubs.stub(.get, "https://api.example.com/todos", with: .json([Todo(id: 9, title: "Stubbed")]))
        let todos: [Todo] = try await stubs.makeNetworkLayer(baseURL: api).get(urlString: "todos")
        XCTAssertEqual(todos, [Todo(id: 9, title: "Stubbed")])
    }

    func testARecordedRequestWhoseSecretsWereRedactedReplaysByBody() async throws {
        struct Login: Codable {
            let username: String
            let password: String
        }
        let live = StubTransport()
        live.stub(.post, "https://api.example.com/login", with: .json(["ok"]))
        live.stub(.post, "https://api.example.com/token", with: .json(["token"]))
        let recorder = HARRecorder()
        let network = live.makeNetworkLayer(baseURL: api, monitors: [recorder])
        let _: [String] = try await network.post(
            urlString: "login", body: Login(username: "ann", password: "hunter2"))
        let form = try RequestBody.urlEncodedForm(["grant_type": "refresh_token", "refresh_token": "RT-1"])
        _ = try await network.send(NetworkRequest<[String]>(method: .post, urlString: "token", body: form))
        let recorded = await recorder.waitForEntries(2)
        XCTAssertTrue(recorded)
        let archive = recorder.archive
        for entry in archive.entries {
            let text = entry.request.postData?.text ?? ""
            XCTAssertFalse(text.contains("hunter2") || text.contains("RT-1"), text)
        }

        let stubs = StubTransport()
        let replay = stubs.replay(archive, matchingBody: true)
        let replayed = stubs.makeNetworkLayer(baseURL: api)
        let login: [String]? = try? await replayed.post(
            urlString: "login", body: Login(username: "ann", password: "another"))
        let token = try? await replayed.send(
            NetworkRequest<[String]>(method: .post, urlString: "token", body: form)
        )
        .value
        XCTAssertEqual(login, ["ok"])
        XCTAssertEqual(token, ["token"])
        // A redacted value stands for any value, not for any body.
        let stranger: [String]? = try? await replayed.post(
            urlString: "login", body: Login(username: "bob", password: "hunter2"))
        XCTAssertNil(stranger)
        XCTAssertEqual(replay.failures.count, 1)
    }

    private static func entry(_ method: String, _ url: String, body: String, reply: String)
        -> HARArchive.Entry
    {
        HARArchive.Entry(
            startedDateTime: Date(),
            request: HARArchive.Request(
                method: method, url: url,
                postData: HARArchive.PostData(data: Data(body.utf8), mimeType: "application/json")),
            response: HARArchive.Response(
                status: 200,
                content: HARArchive.Content(data: Data("[\"\(reply)\"]".utf8), mimeType: "application/json")))
    }
}
