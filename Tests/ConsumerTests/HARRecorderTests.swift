import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Recording real traffic with `HARRecorder`: the file it writes replays with the same results, has the
/// shape HAR 1.2 asks for, and holds no secret.
final class HARRecorderTests: XCTestCase {
    private var files: [URL] = []

    override func tearDown() {
        for file in files { try? FileManager.default.removeItem(at: file) }
        super.tearDown()
    }

    func testBodySizeOfABodyNotRecordedIsItsContentLength() throws {
        let streamed = HARArchive.Request(
            method: "PUT", url: "https://api.example.com/upload",
            headers: [HARArchive.Header(name: "Content-Length", value: "1048576")])
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(streamed)) as? [String: Any]
        XCTAssertEqual(json?["bodySize"] as? Int, 1_048_576)
        let none = HARArchive.Request(method: "GET", url: "https://api.example.com/items")
        let empty = try JSONSerialization.jsonObject(with: JSONEncoder().encode(none)) as? [String: Any]
        XCTAssertEqual(empty?["bodySize"] as? Int, 0)
    }

    func testRecordedTrafficReplaysWithTheSameResults() async throws {
        let server = try Self.startTodoServer()
        defer { server.stop() }
        let recorder = HARRecorder()
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 10, monitors: [recorder])
        let live = await TodoSession.play(on: network)
        XCTAssertEqual(live, TodoSession.expected)
        let recorded = await recorder.waitForEntries(7)
        XCTAssertTrue(recorded, "\(recorder.archive.entries.count) entries")
        let file = temporaryFile("session.har")
        try recorder.write(to: file)
        let archive = try HARArchive(contentsOf: file)
        XCTAssertEqual(archive.entries.map(\.request), recorder.archive.entries.map(\.request))
        XCTAssertEqual(archive.entries.map(\.response), recorder.archive.entries.map(\.response))

        let replaying = MockServer(replaying: archive)
        try replaying.start()
        defer { replaying.stop() }
        let fromServer = await TodoSession.play(on: NetworkLayer(baseURL: replaying.baseURL, timeout: 10))
        XCTAssertEqual(fromServer, live)

        let stubs = StubTransport()
        let replay = stubs.replay(archive)
        let fromStubs = await TodoSession.play(on: stubs.makeNetworkLayer(baseURL: server.baseURL))
        XCTAssertEqual(fromStubs, live)
        XCTAssertEqual(replay.failures, [])
    }

    func testTheFileHasTheFieldsOfHAR12() async throws {
        let server = try Self.startTodoServer()
        defer { server.stop() }
        let recorder = HARRecorder()
        _ = await TodoSession.play(
            on: NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral, monitors: [recorder]))
        _ = await recorder.waitForEntries(7)
        let json = try JSONSerialization.jsonObject(with: recorder.archive.jsonData()) as? [String: Any]
        let log = try XCTUnwrap(json?["log"] as? [String: Any])
        XCTAssertEqual(log["version"] as? String, "1.2")
        XCTAssertEqual((log["creator"] as? [String: Any])?["name"] as? String, "NetworkTestSupport")
        XCTAssertEqual((log["creator"] as? [String: Any])?["version"] as? String, NetworkLayer.version)
        let entries = try XCTUnwrap(log["entries"] as? [[String: Any]])
        XCTAssertEqual(entries.count, 7)
        for entry in entries {
            XCTAssertEqual(
                Set(entry.keys), ["startedDateTime", "time", "request", "response", "cache", "timings"])
            let request = try XCTUnwrap(entry["request"] as? [String: Any])
            for key in [
                "method", "url", "httpVersion", "headers", "queryString", "cookies", "headersSize",
                "bodySize",
            ] {
                XCTAssertNotNil(request[key], key)
            }
            let response = try XCTUnwrap(entry["response"] as? [String: Any])
            for key in [
                "status", "statusText", "httpVersion", "headers", "cookies", "content", "redirectURL",
            ] {
                XCTAssertNotNil(response[key], key)
            }
            let timings = try XCTUnwrap(entry["timings"] as? [String: Double])
            XCTAssertGreaterThan(timings["wait"] ?? 0, 0)
            XCTAssertGreaterThanOrEqual(timings["receive"] ?? -1, 0)
            XCTAssertEqual(entry["time"] as? Double ?? 0, timings.values.reduce(0, +), accuracy: 0.001)
            let started = try XCTUnwrap(entry["startedDateTime"] as? String)
            XCTAssertTrue(started.hasSuffix("Z") && started.contains("."), started)
        }
        let second = try XCTUnwrap(entries[1]["request"] as? [String: Any])
        let query = try XCTUnwrap(second["queryString"] as? [[String: String]])
        XCTAssertEqual(Set(query), [["name": "page", "value": "2"], ["name": "limit", "value": "2"]])
        let post = try XCTUnwrap((entries[2]["request"] as? [String: Any])?["postData"] as? [String: String])
        XCTAssertEqual(post["mimeType"], "application/json")
        let sent = try JSONDecoder().decode(Todo.self, from: Data((post["text"] ?? "").utf8))
        XCTAssertEqual(sent, Todo(id: 3, title: "Buy milk"))
        let first = try XCTUnwrap(entries[0]["response"] as? [String: Any])
        XCTAssertEqual(first["statusText"] as? String, "OK")
        let list = try XCTUnwrap(first["content"] as? [String: Any])
        XCTAssertEqual(list["mimeType"] as? String, "application/json")
        XCTAssertEqual(
            list["text"] as? String, #"[{"id":1,"title":"Write tests"},{"id":2,"title":"Ship it"}]"#)
        let avatar = try XCTUnwrap((entries[6]["response"] as? [String: Any])?["content"] as? [String: Any])
        XCTAssertEqual(avatar["encoding"] as? String, "base64")
        XCTAssertEqual(avatar["text"] as? String, TodoSession.avatarBase64)
        XCTAssertEqual(avatar["size"] as? Int, 70)
    }

    func testNoSecretReachesTheFile() async throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        let reply = try MockResponse.json(["me": "alice"])
            .addingHeader("Set-Cookie", "session=SECRET-SET-COOKIE; HttpOnly")
            .addingHeader("X-Api-Key", "SECRET-REPLY-KEY")
            .addingHeader("X-Session", "SECRET-REPLY-SESSION")
            .addingHeader("Content-Location", "/me?token=SECRET-LOCATION&v=2")
        server.enqueue(reply)
        server.enqueue(reply)
        let recorder = HARRecorder(redactedHeaders: ["x-session"], redactedQueryItems: ["API_KEY", "token"])
        let network = NetworkLayer(
            baseURL: URL(string: "http://alice:SECRET-PASSWORD@127.0.0.1:\(server.port)/"),
            defaultHeaders: [
                "Authorization": "Bearer SECRET-TOKEN", "Cookie": "sid=SECRET-COOKIE",
                "X-Api-Key": "SECRET-KEY", "X-Session": "SECRET-SESSION",
                "Proxy-Authorization": "Basic SECRET-PROXY",
            ],
            sessionConfiguration: .ephemeral, timeout: 10, monitors: [recorder])
        let me = await outcome { () async throws(NetworkError) -> [String: String] in
            try await network.get(urlString: "me", query: ["api_key": "SECRET-QUERY", "page": "1"])
        }
        XCTAssertEqual(me.value, ["me": "alice"], "\(me)")
        let posted = await outcome { () async throws(NetworkError) -> [String: String] in
            try await network.post(urlString: "me?token=SECRET-QUERY-2", body: ["name": "Alice"])
        }
        XCTAssertEqual(posted.value, ["me": "alice"], "\(posted)")
        let recorded = await recorder.waitForEntries(2)
        XCTAssertTrue(recorded)
        let file = temporaryFile("secrets.har")
        try recorder.write(to: file)

        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        XCTAssertFalse(text.contains("SECRET"), text)
        XCTAssertFalse(text.contains(Data("alice:SECRET-PASSWORD".utf8).base64EncodedString()), text)
        for kept in [
            "\"Authorization\"", "\"Cookie\"", "\"Set-Cookie\"", "\"X-Api-Key\"", "\"X-Session\"",
            "\"Proxy-Authorization\"", "api_key=%3Credacted%3E", "page=1", "token=%3Credacted%3E", "v=2",
            "%3Credacted%3E@127.0.0.1", "\"<redacted>\"", "Alice",
        ] {
            XCTAssertTrue(text.contains(kept), "\(kept) missing from\n\(text)")
        }
        XCTAssertEqual(recorder.redactedHeaders.isSuperset(of: NetworkLogger.alwaysRedactedHeaders), true)
        XCTAssertEqual(
            recorder.redactedQueryItems, NetworkLogger.alwaysRedactedQueryItems.union(["api_key", "token"]))

        // A redacted value stands for any value: the app's real key still finds its entry.
        let stubs = StubTransport()
        let replay = stubs.replay(try HARArchive(contentsOf: file))
        let replayed: [String: String] = try await stubs.makeNetworkLayer(
            baseURL: URL(string: "http://127.0.0.1:\(server.port)/")
        ).get(urlString: "me", query: ["page": "1", "api_key": "ANOTHER-KEY"])
        XCTAssertEqual(replayed, ["me": "alice"])
        XCTAssertEqual(replay.failures, [])
    }

    /// A header named only in the layer's `RedirectPolicy(credentialHeaders:)` is a credential for the
    /// recorder too, which was told nothing of it.
    func testALayersOwnCredentialHeaderIsRedactedInTheFile() async throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        server.enqueue(try MockResponse.json(["ok": true]).addingHeader("X-Tenant-Token", "SECRET-REPLY"))
        let recorder = HARRecorder()
        let network = NetworkLayer(
            baseURL: server.baseURL, defaultHeaders: ["X-Tenant-Token": "SECRET-REQUEST"],
            sessionConfiguration: .ephemeral, timeout: 10,
            redirectPolicy: RedirectPolicy(credentialHeaders: ["X-Tenant-Token"]), monitors: [recorder])
        let reply = await outcome { () async throws(NetworkError) -> [String: Bool] in
            try await network.get(urlString: "me")
        }
        XCTAssertEqual(reply.value, ["ok": true], "\(reply)")
        let recorded = await recorder.waitForEntries(1)
        XCTAssertTrue(recorded)
        let file = temporaryFile("tenant.har")
        try recorder.write(to: file)

        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        XCTAssertFalse(text.contains("SECRET"), text)
        XCTAssertTrue(text.contains("\"X-Tenant-Token\""), text)
    }

    func testNoPartOfASignedURLThatGrantsAccessReachesTheFile() async throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        server.enqueue(
            try MockResponse.json(["ok": true]).addingHeader("Location", "/b?next=%2Fc%3Ftoken%3DSECRET-5"))
        let recorder = HARRecorder()
        let network = NetworkLayer(
            baseURL: URL(string: "http://127.0.0.1:\(server.port)/"), sessionConfiguration: .ephemeral,
            timeout: 10, monitors: [recorder])
        let reply = await outcome { () async throws(NetworkError) -> [String: Bool] in
            try await network.get(
                urlString: "object?X-Amz-Credential=SECRET-1&X-Amz-Security-Token=SECRET-2"
                    + "&X-Amz-Signature=SECRET-3&X-Amz-Expires=60&next=%2Fa%3Faccess_token%3DSECRET-4")
        }
        XCTAssertEqual(reply.value, ["ok": true], "\(reply)")
        let recorded = await recorder.waitForEntries(1)
        XCTAssertTrue(recorded)
        let file = temporaryFile("signed.har")
        try recorder.write(to: file)

        let text = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        XCTAssertFalse(text.contains("SECRET"), text)
        for kept in [
            "X-Amz-Signature=%3Credacted%3E", "X-Amz-Expires=60", "next=/a%3Faccess_token%3D%3Credacted%3E",
        ] {
            XCTAssertTrue(text.contains(kept), "\(kept) missing from\n\(text)")
        }
    }

    func testEachAttemptOfARetriedRequestIsAnEntry() async throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        server.enqueue(MockResponse(status: 503, headers: ["Retry-After": "0"], text: "busy"))
        server.enqueue(try .json(["ok"]))
        let recorder = HARRecorder()
        let retrying = RetryPolicy(maximumAttempts: 2, initialDelay: 0)
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, timeout: 10, retryPolicy: retrying,
            monitors: [recorder])
        let live: [String] = try await network.get(urlString: "flaky")
        _ = await recorder.waitForEntries(2)
        let archive = recorder.archive
        XCTAssertEqual(archive.entries.map(\.response.status), [503, 200])
        XCTAssertEqual(archive.entries.map(\.response.statusText), ["Service Unavailable", "OK"])

        let replaying = MockServer(replaying: archive)
        try replaying.start()
        defer { replaying.stop() }
        let again: [String] = try await NetworkLayer(
            baseURL: replaying.baseURL, timeout: 10, retryPolicy: retrying
        ).get(urlString: "flaky")
        XCTAssertEqual(again, live)
        XCTAssertEqual(replaying.requestCount, 2)
    }

    // MARK: - Helpers

    /// A server answering the requests of ``TodoSession/play(on:)`` in order, the list gzip-encoded.
    static func startTodoServer() throws -> MockServer {
        let server = MockServer()
        try server.start()
        let json = ["Content-Type": "application/json"]
        server.enqueue(contentsOf: [
            MockResponse(
                headers: json,
                body: Data(#"[{"id":1,"title":"Write tests"},{"id":2,"title":"Ship it"}]"#.utf8)
            ).gzipped(),
            MockResponse(headers: json, body: Data("[]".utf8)),
            MockResponse(status: 201, headers: json, body: Data(#"{"id":3,"title":"Buy milk"}"#.utf8)),
            MockResponse(headers: json, body: Data(#"{"id":3,"title":"Buy milk"}"#.utf8)),
            MockResponse(status: 204),
            MockResponse(
                status: 404, headers: ["Content-Type": "application/problem+json"], body: Data("{}".utf8)),
            MockResponse(
                headers: ["Content-Type": "image/png"],
                body: Data(base64Encoded: TodoSession.avatarBase64) ?? Data()),
        ])
        return server
    }

    private func temporaryFile(_ name: String) -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(UUID().uuidString)-\(name)")
        files.append(file)
        return file
    }
}
