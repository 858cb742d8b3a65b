import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Downloads and uploads are requests: built by `NetworkRequest.download` and `.upload`, sent through
/// `send`, so their `async` form is `send`'s, progress included.
final class AsyncTransferTests: XCTestCase {
    func testAnAwaitedDownloadWritesTheFileAndReportsProgressFirst() async throws {
        let server = try MockServer.started(in: self)
        let body = Data((0..<200_000).map { UInt8($0 % 251) })
        server.enqueue(MockResponse(headers: ["Content-Type": "application/octet-stream"], body: body))
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        let destination = try makeFolder().appendingPathComponent("file.bin")
        let reports = ProgressLog()

        var request = NetworkRequest.download(urlString: "file", to: destination)
        request.progressHandler = { reports.add($0.completedBytes) }
        let file = try await network.send(request).value

        XCTAssertEqual(file, destination)
        XCTAssertEqual(try Data(contentsOf: destination), body)
        XCTAssertEqual(
            reports.values.last, Int64(body.count), "the last progress call comes before the reply")
    }

    func testAnAwaitedUploadOfDataDecodesTheReply() async throws {
        let server = try MockServer.started(in: self) { request in
            try .json(["received": request.body.count])
        }
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        let reply: [String: Int] = try await network.send(
            .upload(urlString: "photos", data: Data(repeating: 7, count: 5_000), contentType: "image/jpeg")
        ).value
        XCTAssertEqual(reply, ["received": 5_000])
        XCTAssertEqual(server.takeRequest(timeout: 5)?.header("Content-Type"), "image/jpeg")
    }

    func testAnAwaitedUploadOfAFileWithAnEmptyReply() async throws {
        let server = try MockServer.started(in: self) { _ in MockResponse(status: 204) }
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        let file = try makeFolder().appendingPathComponent("notes.txt")
        try Data("hello".utf8).write(to: file)
        _ = try await network.send(NetworkRequest<EmptyResponse>.upload(urlString: "notes", fileURL: file))
        let received = server.takeRequest(timeout: 5)
        XCTAssertEqual(received?.body, Data("hello".utf8))
        XCTAssertEqual(received?.header("Content-Type"), "text/plain")
    }

    func testCancellingTheTaskCancelsTheDownload() async throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse().withFault(.stall))
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        let destination = try makeFolder().appendingPathComponent("never.bin")
        let download = Task { () async throws(NetworkError) -> URL in
            try await network.send(NetworkRequest.download(urlString: "stall", to: destination)).value
        }
        _ = await Task.detached { server.takeRequest(timeout: 5) }.value
        download.cancel()
        let result = await download.result
        XCTAssertEqual((result.error as? NetworkError)?.isCancelled, true, "\(result)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
    }
}

/// Progress values as they were reported, from the callback queue.
private final class ProgressLog: Sendable {
    private let log = Locked<[Int64]>([])
    func add(_ value: Int64) { log.withLock { $0.append(value) } }
    var values: [Int64] { log.withLock { $0 } }
}
