import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// Runs every sample of the "Coming from URLSession" article against a MockServer.
final class ComingFromURLSessionArticleTests: XCTestCase {
    private let todos = [Todo(id: 1, title: "Drop the URLProtocol")]

    func testTheHandlersGetTheWholeResponseAndAnErrorStatus() throws {
        let server = try startServer()
        server.enqueue(try .json(todos, headers: ["ETag": "\"v1\""]))
        server.enqueue(MockResponse(status: 404))
        let network = NetworkLayer(baseURL: server.baseURL)
        XCTAssertEqual(
            try shown { ComingFromURLSessionSnippets.handlers(network, shown: $0) },
            "200: 1 todos, ETag \"v1\"")
        XCTAssertEqual(
            try shown { ComingFromURLSessionSnippets.handlers(network, shown: $0) },
            NetworkError.unacceptableStatusCode(404, body: Data(), headers: [:]).message)
    }

    func testTheAsyncFormReturnsTheTodosAndTheirDuration() async throws {
        let server = try startServer()
        server.enqueue(try .json(todos))
        let (received, duration) = try await ComingFromURLSessionSnippets.awaiting(
            NetworkLayer(baseURL: server.baseURL))
        XCTAssertEqual(received, todos)
        XCTAssertGreaterThan(try XCTUnwrap(duration), 0)
    }

    func testTheLinesArriveAsValues() async throws {
        let server = try startServer()
        let entries = [
            ComingFromURLSessionSnippets.Entry(level: "info", message: "started"),
            ComingFromURLSessionSnippets.Entry(level: "warn", message: "slow disk"),
        ]
        server.enqueue(try .jsonLines(entries, interval: 0.05))
        let received = try await ComingFromURLSessionSnippets.lines(NetworkLayer(baseURL: server.baseURL))
        XCTAssertEqual(received, entries)
    }

    func testTheDownloadAndTheUploadFromAFile() async throws {
        let server = try startServer()
        let pdf = Data("%PDF-1.7 report".utf8)
        server.handler = { request in
            request.method == "GET" ? MockResponse(body: pdf) : try .json(StoredDocument(id: 9), status: 201)
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ComingFrom-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("upload.pdf")
        try pdf.write(to: file)
        let destination = folder.appendingPathComponent("report.pdf")

        let stored = try await ComingFromURLSessionSnippets.transfers(
            NetworkLayer(baseURL: server.baseURL), to: destination, sending: file)

        XCTAssertEqual(stored, StoredDocument(id: 9))
        XCTAssertEqual(try Data(contentsOf: destination), pdf)
        XCTAssertEqual(server.recordedRequests.first { $0.method == "POST" }?.body, pdf)
    }

    func testTheSecondRequestIsAnsweredByTheLayersCache() throws {
        let server = try startServer()
        server.enqueue(try MockResponse.json(todos).cacheControl("max-age=60"))
        let (network, request) = ComingFromURLSessionSnippets.cached(baseURL: server.baseURL)
        var statuses: [CacheStatus] = []
        for _ in 0..<2 {
            let answered = expectation(description: "answered")
            network.send(
                request,
                successHandler: { response in
                    statuses.append(response.cacheStatus)
                    answered.fulfill()
                },
                errorHandler: { error in XCTFail(error.message) })
            wait(for: [answered], timeout: 10)
        }
        XCTAssertEqual(statuses, [.network, .hit])
        XCTAssertEqual(server.requestCount, 1)
    }

    func testTheMonitorRecordsTheTimeToTheFirstByte() throws {
        let server = try startServer()
        server.enqueue(try MockResponse.json(todos).delayed(beforeHeaders: 0.1))
        let recorded = expectation(description: "recorded")
        let lines = ReportedLines()
        let monitor = FirstByteMonitor { path, seconds in
            lines.append("\(path) \(seconds >= 0.1)")
            recorded.fulfill()
        }
        let network = NetworkLayer(baseURL: server.baseURL, monitors: [monitor])
        network.get(urlString: "todos", successHandler: { (_: [Todo]) in }, errorHandler: { _ in })
        wait(for: [recorded], timeout: 10)
        XCTAssertEqual(lines.lines, ["/todos true"])
    }

    // MARK: - Support

    private func startServer() throws -> MockServer {
        let server = MockServer()
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }

    /// The one line a sample shows.
    private func shown(_ sample: (@escaping (String) -> Void) -> NetworkTask) throws -> String {
        var line: String?
        let answered = expectation(description: "shown")
        _ = sample { shownLine in
            line = shownLine
            answered.fulfill()
        }
        wait(for: [answered], timeout: 10)
        return try XCTUnwrap(line)
    }
}
