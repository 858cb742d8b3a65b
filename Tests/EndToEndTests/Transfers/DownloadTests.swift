import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Downloads end to end on MockServer: bytes on disk identical to what was served, the file in place
/// only when complete, no temporary file left behind, progress by the rules.
final class DownloadTests: XCTestCase {
    private struct JSONFeed: Endpoint {
        var path: String { "data" }
        var method: HTTPMethod { .get }
        var acceptableContentTypes: [String]? { ["application/json"] }
    }

    private static let megabyte = 1_048_576

    private func download(
        _ network: NetworkLayer, _ path: String, to destination: URL, options: DownloadOptions = [],
        headers: [String: String] = [:], log: TransferLog? = nil, timeout: TimeInterval = 20
    ) -> Result<URL, NetworkError>? {
        var request = NetworkRequest.download(
            urlString: path, to: destination, options: options, headers: headers)
        request.progressHandler = log?.progress
        return outcome(of: URL.self, timeout: timeout) { recorder in
            network.send(
                request,
                successHandler: { response in
                    log?.finish()
                    recorder.success(response.value)
                },
                errorHandler: { error in
                    log?.finish()
                    recorder.failure(error)
                })
        }
    }

    func testDownloadsOfEverySizeArriveIdenticalWithNothingElseLeft() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()

        for size in [0, 1, 64 * 1024, 50 * Self.megabyte] {
            let data = TestData.bytes(size, seed: UInt64(size) + 7)
            server.enqueue(.file(data))
            let destination = folder.appendingPathComponent("file-\(size).bin")
            let log = TransferLog()

            let result = download(network, "files/\(size)", to: destination, log: log, timeout: 30)

            XCTAssertEqual(try result?.get(), destination, "\(size) bytes")
            XCTAssertEqual(Checksum.of(try Data(contentsOf: destination)), Checksum.of(data), "\(size) bytes")
            log.assertContract(total: Int64(size), expected: Int64(size))
        }
        XCTAssertEqual(
            fileNames(in: folder), ["file-0.bin", "file-1.bin", "file-52428800.bin", "file-65536.bin"])
        let request = try XCTUnwrap(server.takeRequest())
        XCTAssertEqual(request.header("Accept"), "*/*")
        XCTAssertNil(request.header("Range"))
    }

    func testThrottledDownloadReportsProgressThatOnlyGrowsAtMostThirtyTimesASecond() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let destination = try makeFolder().appendingPathComponent("slow.bin")
        let data = TestData.bytes(2 * Self.megabyte)
        // About 0.6 s: 64 KB every 20 ms.
        server.enqueue(MockResponse.file(data).throttled(bytes: 64 * 1024, every: 0.02))
        let log = TransferLog()

        XCTAssertNotNil(try download(network, "slow", to: destination, log: log)?.get())

        log.assertContract(total: Int64(data.count), expected: Int64(data.count))
        XCTAssertGreaterThan(log.reports.count, 5, "progress while the body arrives")
        XCTAssertLessThan(log.reports.first?.completedBytes ?? .max, Int64(data.count))
    }

    func testAReplyOfUnknownLengthReportsBytesWithoutAnExpectedTotal() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        let data = TestData.bytes(300_000)
        server.enqueue(MockResponse(body: data).chunked(size: 16 * 1024))
        server.enqueue(MockResponse(body: data).gzipped())

        for name in ["chunked.bin", "gzip.bin"] {
            let log = TransferLog()
            let destination = folder.appendingPathComponent(name)

            XCTAssertNotNil(try download(network, name, to: destination, log: log)?.get(), name)

            XCTAssertEqual(try Data(contentsOf: destination), data, name)
            log.assertContract(total: Int64(data.count), expected: nil)
            XCTAssertTrue(
                log.reports.allSatisfy { $0.expectedBytes == nil && $0.fractionCompleted == nil }, name)
        }
        XCTAssertEqual(
            fileNames(in: folder), ["chunked.bin", "gzip.bin"], "a gzip reply leaves nothing to resume")
    }

    func testMaximumResponseSizeDoesNotApplyToDownloads() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL, maximumResponseSize: 1_024)
        let destination = try makeFolder().appendingPathComponent("big.bin")
        let data = TestData.bytes(Self.megabyte)
        server.enqueue(.file(data))

        XCTAssertNotNil(try download(network, "big", to: destination)?.get())
        XCTAssertEqual(try Data(contentsOf: destination), data)
    }

    func testANotFoundReplyIsAnErrorWithItsBodyAndNoFile() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        server.enqueue(MockResponse(status: 404, text: "no such report"))

        let result = download(network, "missing", to: folder.appendingPathComponent("report.pdf"))

        guard case .failure(.unacceptableStatusCode(404, let body, _))? = result else {
            return XCTFail("expected a 404, got \(String(describing: result))")
        }
        XCTAssertEqual(String(decoding: body, as: UTF8.self), "no such report")
        XCTAssertEqual(fileNames(in: folder), [])
    }

    func testAnExistingDestinationFailsBeforeSendingUnlessReplacing() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        let destination = try writeFile(Data("old".utf8), named: "report.pdf", in: folder)

        let refused = download(network, "report", to: destination)

        guard case .failure(.transport(let error))? = refused else {
            return XCTFail("expected a file error, got \(String(describing: refused))")
        }
        XCTAssertEqual(error.code, .cannotCreateFile)
        XCTAssertEqual(refused.flatMap { try? $0.get() }, nil)
        XCTAssertEqual(server.requestCount, 0, "nothing was sent")
        XCTAssertEqual(try Data(contentsOf: destination), Data("old".utf8))

        server.enqueue(.file(Data("new".utf8)))
        XCTAssertNotNil(try download(network, "report", to: destination, options: .replaceExisting)?.get())
        XCTAssertEqual(try Data(contentsOf: destination), Data("new".utf8))
        XCTAssertEqual(fileNames(in: folder), ["report.pdf"])
    }

    func testAnUnwritableDestinationFailsBeforeSending() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        let notAFolder = try writeFile(Data("x".utf8), named: "plain-file", in: folder)

        for destination in [
            notAFolder.appendingPathComponent("report.pdf"),
            folder.appendingPathComponent("missing/report.pdf"),
        ] {
            let result = download(network, "report", to: destination)

            guard case .failure(.transport(let error))? = result else {
                return XCTFail("expected a file error, got \(String(describing: result))")
            }
            XCTAssertEqual(error.code, .cannotOpenFile)
            XCTAssertEqual(NetworkError.transport(error).message, "The file could not be saved.")
        }
        XCTAssertEqual(server.requestCount, 0)
    }

    /// Issue 19: `.createIntermediateFolders` makes the missing folders before sending.
    func testMissingFoldersAreCreatedWhenAsked() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse.file(Data("%PDF".utf8)))
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        let destination = folder.appendingPathComponent("2026/11/report.pdf")

        let result = download(network, "report", to: destination, options: [.createIntermediateFolders])

        XCTAssertEqual(result?.value, destination)
        XCTAssertEqual(try Data(contentsOf: destination), Data("%PDF".utf8))
        XCTAssertEqual(fileNames(in: destination.deletingLastPathComponent()), ["report.pdf"])
    }

    func testAFolderThatCannotBeCreatedFailsBeforeSending() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        let notAFolder = try writeFile(Data("x".utf8), named: "plain-file", in: folder)

        let result = download(
            network, "report", to: notAFolder.appendingPathComponent("sub/report.pdf"),
            options: [.createIntermediateFolders])

        guard case .failure(.transport(let error))? = result else {
            return XCTFail("expected a file error, got \(String(describing: result))")
        }
        XCTAssertEqual(error.code, .cannotOpenFile)
        XCTAssertEqual(server.requestCount, 0)
    }

    func testCancelEndsPromptlyKeepsThePartialDownloadAndLeavesNoTemporaryFile() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        let destination = folder.appendingPathComponent("video.mp4")
        let data = TestData.bytes(8 * Self.megabyte)
        server.enqueue(MockResponse.file(data).throttled(bytes: 64 * 1024, every: 0.01))
        let started = expectation(description: "bytes arrived")
        started.assertForOverFulfill = false
        var task: NetworkTask?
        var keptWhenTold: Int64?

        var request = NetworkRequest.download(urlString: "video", to: destination)
        request.progressHandler = { progress in
            if progress.completedBytes > 256 * 1024 { started.fulfill() }
        }
        let result = outcome(of: URL.self) { recorder in
            let running = network.send(
                request,
                successHandler: { recorder.success($0.value) },
                errorHandler: { error in
                    keptWhenTold = NetworkLayer.partialDownloadSize(for: destination)
                    recorder.failure(error)
                })
            task = running
            return running
        } beforeWaiting: {
            wait(for: [started], timeout: 10)
            task?.cancel()
        }

        guard case .failure(.cancelled)? = result else {
            return XCTFail("expected .cancelled, got \(String(describing: result))")
        }
        // The `.cancelled` handler runs once the transfer has written out what it holds: the partial
        // download is complete on disk, with its validator, when the handler looks.
        XCTAssertGreaterThanOrEqual(keptWhenTold ?? 0, 256 * 1024, "partial size seen by the handler")
        XCTAssertEqual(fileNames(in: folder), ["video.mp4.partial", "video.mp4.partial.json"])
        let kept = try XCTUnwrap(NetworkLayer.partialDownloadSize(for: destination))
        XCTAssertGreaterThanOrEqual(kept, 256 * 1024)
        XCTAssertLessThan(kept, Int64(data.count))

        NetworkLayer.removePartialDownload(for: destination)
        XCTAssertEqual(fileNames(in: folder), [])
    }

    func testADownloadOfAnUnacceptableTypeFailsAndWritesNothing() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        let destination = folder.appendingPathComponent("data.json")
        server.enqueue(MockResponse(headers: ["Content-Type": "application/xml"], body: Data("<feed/>".utf8)))

        let result = outcome(of: URL.self) { recorder in
            network.send(
                .download(JSONFeed(), to: destination), successHandler: { recorder.success($0.value) },
                errorHandler: recorder.failure)
        }

        guard case .failure(.unacceptableContentType(let type, let body, _))? = result else {
            return XCTFail("expected an unacceptable content type, got \(String(describing: result))")
        }
        XCTAssertEqual(type, "application/xml")
        XCTAssertEqual(body, Data("<feed/>".utf8))
        XCTAssertEqual(fileNames(in: folder), [], "nothing written for a reply of the wrong type")
    }

    /// Cancelled before the first 256 KB reached the disk: the handler still finds the bytes received so
    /// far written out and resumable.
    func testTheCancelledHandlerSeesThePartialDownloadComplete() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        let destination = folder.appendingPathComponent("early.bin")
        server.enqueue(
            MockResponse.file(TestData.bytes(4 * Self.megabyte)).throttled(bytes: 16 * 1024, every: 0.02))
        let started = expectation(description: "bytes arrived")
        started.assertForOverFulfill = false
        var task: NetworkTask?
        var keptWhenTold: Int64?

        var request = NetworkRequest.download(urlString: "early", to: destination)
        request.progressHandler = { progress in
            if progress.completedBytes > 0 { started.fulfill() }
        }
        let result = outcome(of: URL.self) { recorder in
            let running = network.send(
                request,
                successHandler: { recorder.success($0.value) },
                errorHandler: { error in
                    keptWhenTold = NetworkLayer.partialDownloadSize(for: destination)
                    recorder.failure(error)
                })
            task = running
            return running
        } beforeWaiting: {
            wait(for: [started], timeout: 10)
            task?.cancel()
        }

        guard case .failure(.cancelled)? = result else {
            return XCTFail("expected .cancelled, got \(String(describing: result))")
        }
        let kept = try XCTUnwrap(keptWhenTold, "the handler found no partial download")
        XCTAssertGreaterThan(kept, 0)
        XCTAssertLessThan(kept, 256 * 1024)
        NetworkLayer.removePartialDownload(for: destination)
    }
}
