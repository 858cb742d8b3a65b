import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Resuming from the partial file an interrupted download leaves: `Range` and `If-Range` from the bytes
/// on disk, from any URL while the validator matches, and a clean restart whenever the server's answer
/// can't continue them. The result is always byte-identical to an uninterrupted download.
final class ResumeTests: XCTestCase {
    private static let megabyte = 1_048_576
    private let data = TestData.bytes(4 * 1_048_576, seed: 41)

    private func download(
        _ network: NetworkLayer, _ path: String, to destination: URL, options: DownloadOptions = [],
        log: TransferLog? = nil
    ) -> Result<URL, NetworkError>? {
        var request = NetworkRequest.download(urlString: path, to: destination, options: options)
        request.progressHandler = log?.progress
        return outcome(of: URL.self, timeout: 20) { recorder in
            network.send(
                request,
                successHandler: { response in
                    log?.finish()
                    recorder.success(response.value)
                },
                errorHandler: recorder.failure)
        }
    }

    /// A download of `data` that the server cuts after half of it; returns the destination.
    private func interruptedDownload(_ network: NetworkLayer, _ server: MockServer, etag: String = "\"v1\"")
        throws -> URL
    {
        let destination = try makeFolder().appendingPathComponent("archive.zip")
        server.enqueue(MockResponse.file(data, etag: etag).withFault(.disconnectMidBody))
        let result = download(network, "archive", to: destination)
        guard case .failure(.transport)? = result else {
            XCTFail("expected the cut to fail the download, got \(String(describing: result))")
            return destination
        }
        XCTAssertEqual(NetworkLayer.partialDownloadSize(for: destination), Int64(data.count / 2))
        XCTAssertFalse(FileManager.default.fileExists(atPath: destination.path))
        _ = server.takeRequest()
        return destination
    }

    func testADisconnectHalfwayThenAResumeGivesTheIdenticalFile() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let destination = try interruptedDownload(network, server)
        server.enqueue(.file(data))
        let log = TransferLog()

        XCTAssertEqual(try download(network, "archive", to: destination, log: log)?.get(), destination)

        XCTAssertEqual(Checksum.of(try Data(contentsOf: destination)), Checksum.of(data))
        let resumed = try XCTUnwrap(server.takeRequest())
        XCTAssertEqual(resumed.header("Range"), "bytes=\(data.count / 2)-")
        XCTAssertEqual(resumed.header("If-Range"), "\"v1\"")
        XCTAssertEqual(fileNames(in: destination.deletingLastPathComponent()), ["archive.zip"])
        // Counted from the bytes already on disk.
        XCTAssertGreaterThanOrEqual(log.reports.first?.completedBytes ?? 0, Int64(data.count / 2))
        log.assertContract(total: Int64(data.count), expected: Int64(data.count))
    }

    func testAResumeFromANewURLContinuesWhileTheValidatorMatches() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let destination = try interruptedDownload(network, server)
        server.enqueue(.file(data))

        XCTAssertNotNil(try download(network, "archive?signature=fresh", to: destination)?.get())

        XCTAssertEqual(Checksum.of(try Data(contentsOf: destination)), Checksum.of(data))
        let resumed = try XCTUnwrap(server.takeRequest())
        XCTAssertEqual(resumed.target, "/archive?signature=fresh")
        XCTAssertEqual(resumed.header("Range"), "bytes=\(data.count / 2)-")
    }

    func testAChangedETagRestartsInsteadOfSplicingTwoVersions() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let destination = try interruptedDownload(network, server)
        let newVersion = TestData.bytes(3 * Self.megabyte, seed: 99)
        // MockServer ignores If-Range, so it answers the range of the new version with a 206: the layer
        // sees the new ETag, discards the old bytes and asks for the whole file.
        server.enqueue(.file(newVersion, etag: "\"v2\""))
        server.enqueue(.file(newVersion, etag: "\"v2\""))

        XCTAssertNotNil(try download(network, "archive", to: destination)?.get())

        XCTAssertEqual(Checksum.of(try Data(contentsOf: destination)), Checksum.of(newVersion))
        XCTAssertEqual(server.takeRequest()?.header("Range"), "bytes=\(data.count / 2)-")
        XCTAssertNil(server.takeRequest()?.header("Range"))
    }

    /// A retry finds a smaller version: the last progress call still says what the file holds.
    func testTheLastProgressCallReportsTheFileAfterARestartOnASmallerVersion() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(
            baseURL: server.baseURL, retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.01))
        let destination = try makeFolder().appendingPathComponent("archive.zip")
        server.enqueue(
            MockResponse.file(data).throttled(bytes: 128 * 1024, every: 0.01).withFault(.disconnectMidBody))
        let newVersion = TestData.bytes(Self.megabyte, seed: 7)
        server.enqueue(MockResponse(headers: ["ETag": "\"v2\""], body: newVersion))
        let log = TransferLog()

        XCTAssertNotNil(try download(network, "archive", to: destination, log: log)?.get())

        XCTAssertEqual(try Data(contentsOf: destination), newVersion)
        let total = Int64(newVersion.count)
        XCTAssertEqual(
            log.reports.last, TransferProgress(completedBytes: total, expectedBytes: total), "\(log.reports)")
    }

    func testARestartDoesNotWaitForTheRefusedReplysBody() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL, timeout: 2)
        let destination = try interruptedDownload(network, server)
        let newVersion = TestData.bytes(3 * Self.megabyte, seed: 97)
        // The new version's range comes slowly, after the 2 s timeout: the layer restarts at its head
        // instead of reading on (or timing out) first.
        server.enqueue(MockResponse.file(newVersion, etag: "\"v2\"").delayed(beforeBody: 5))
        server.enqueue(.file(newVersion, etag: "\"v2\""))

        XCTAssertNotNil(try download(network, "archive", to: destination)?.get())

        XCTAssertEqual(Checksum.of(try Data(contentsOf: destination)), Checksum.of(newVersion))
        XCTAssertEqual(server.takeRequest()?.header("Range"), "bytes=\(data.count / 2)-")
        XCTAssertNil(server.takeRequest()?.header("Range"))
    }

    func testAServerHonouringIfRangeAnswers200AndTheDownloadRestartsInPlace() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let destination = try interruptedDownload(network, server)
        let newVersion = TestData.bytes(3 * Self.megabyte, seed: 98)
        server.handler = { request in
            XCTAssertEqual(request.header("If-Range"), "\"v1\"")
            return MockResponse(headers: ["ETag": "\"v2\""], body: newVersion)
        }
        let log = TransferLog()

        XCTAssertNotNil(try download(network, "archive", to: destination, log: log)?.get())

        XCTAssertEqual(Checksum.of(try Data(contentsOf: destination)), Checksum.of(newVersion))
        XCTAssertEqual(server.requestCount, 2, "one request: the 200 replaces the bytes on disk")
        let reports = log.reports
        for (earlier, later) in zip(reports, reports.dropFirst()) {
            XCTAssertGreaterThanOrEqual(later.completedBytes, earlier.completedBytes)
        }
    }

    func testA200AnswerToARangeRequestRestartsCleanly() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let destination = try interruptedDownload(network, server)
        server.enqueue(MockResponse(headers: ["ETag": "\"v1\""], body: data))

        XCTAssertNotNil(try download(network, "archive", to: destination)?.get())

        XCTAssertEqual(Checksum.of(try Data(contentsOf: destination)), Checksum.of(data))
        XCTAssertEqual(server.requestCount, 2)
    }

    func testA416RestartsFromZero() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let destination = try interruptedDownload(network, server)
        server.enqueue(MockResponse(status: 416, headers: ["Content-Range": "bytes */10"], text: ""))
        server.enqueue(.file(data))

        XCTAssertNotNil(try download(network, "archive", to: destination)?.get())

        XCTAssertEqual(Checksum.of(try Data(contentsOf: destination)), Checksum.of(data))
        XCTAssertNotNil(server.takeRequest()?.header("Range"))
        XCTAssertNil(server.takeRequest()?.header("Range"))
    }

    func testTheRestartOptionIgnoresThePartialDownload() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let destination = try interruptedDownload(network, server)
        server.enqueue(.file(data))

        XCTAssertNotNil(try download(network, "archive", to: destination, options: .restart)?.get())

        XCTAssertEqual(Checksum.of(try Data(contentsOf: destination)), Checksum.of(data))
        XCTAssertNil(server.takeRequest()?.header("Range"))
    }

    func testARetryPolicyResumesWhereTheFailedAttemptStopped() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(
            baseURL: server.baseURL, retryPolicy: RetryPolicy(maximumAttempts: 2, initialDelay: 0.01))
        let destination = try makeFolder().appendingPathComponent("archive.zip")
        server.enqueue(MockResponse.file(data).withFault(.disconnectMidBody))
        server.enqueue(.file(data))

        XCTAssertNotNil(try download(network, "archive", to: destination)?.get())

        XCTAssertEqual(Checksum.of(try Data(contentsOf: destination)), Checksum.of(data))
        XCTAssertNil(server.takeRequest()?.header("Range"))
        XCTAssertEqual(server.takeRequest()?.header("Range"), "bytes=\(data.count / 2)-")
    }
}
