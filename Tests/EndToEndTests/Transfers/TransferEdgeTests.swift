import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// The other entry points and paths of transfers: endpoints, cancelled uploads, what the partial
/// download's info keeps (and what it must not), and no temporary files anywhere.
final class TransferEdgeTests: XCTestCase {
    private struct ReportFile: Endpoint {
        var path: String { "reports/2026.pdf" }
        var method: HTTPMethod { .get }
        var headers: [String: String] { ["X-Report": "annual"] }
    }

    func testAnEndpointDownloads() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let destination = try makeFolder().appendingPathComponent("2026.pdf")
        server.enqueue(.file(Data("%PDF".utf8)))

        let result = outcome(of: URL.self) { recorder in
            network.send(
                .download(ReportFile(), to: destination), successHandler: { recorder.success($0.value) },
                errorHandler: recorder.failure)
        }

        XCTAssertEqual(try result?.get(), destination)
        XCTAssertEqual(try Data(contentsOf: destination), Data("%PDF".utf8))
        let request = try XCTUnwrap(server.takeRequest())
        XCTAssertEqual(request.path, "/reports/2026.pdf")
        XCTAssertEqual(request.header("X-Report"), "annual")
    }

    func testACancelledUploadEndsPromptlyWithCancelled() throws {
        let server = try MockServer.started(maxRequestBodySize: 8 * 1_048_576, in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        // The server reads the body, then takes its time to answer.
        server.enqueue(MockResponse(text: "late").delayed(beforeHeaders: 5))
        let sent = expectation(description: "the body went out")
        sent.assertForOverFulfill = false
        var task: NetworkTask?
        let began = Date()

        var request = NetworkRequest<EmptyResponse>.upload(
            urlString: "uploads", data: Data(count: 4 * 1_048_576))
        request.progressHandler = { progress in
            if progress.completedBytes == 4 * 1_048_576 { sent.fulfill() }
        }
        let result = outcome(of: EmptyResponse.self) { recorder in
            let running = network.send(
                request, successHandler: { _ in recorder.success(EmptyResponse()) },
                errorHandler: recorder.failure)
            task = running
            return running
        } beforeWaiting: {
            wait(for: [sent], timeout: 10)
            task?.cancel()
        }

        guard case .failure(.cancelled)? = result else {
            return XCTFail("expected .cancelled, got \(String(describing: result))")
        }
        XCTAssertLessThan(Date().timeIntervalSince(began), 4)
    }

    func testThePartialDownloadsInfoKeepsTheValidatorButNoSecretsFromTheURL() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        let destination = folder.appendingPathComponent("movie.mkv")
        server.enqueue(
            MockResponse(
                headers: ["ETag": "\"m1\"", "Last-Modified": "Mon, 02 Mar 2026 10:00:00 GMT"],
                body: TestData.bytes(1_048_576)
            ).withFault(.disconnectMidBody))

        _ = outcome(of: URL.self) { recorder in
            network.send(
                .download(urlString: "movie?token=secret&expires=1", to: destination),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }

        // A durable record: a binary header, then the JSON.
        let info = String(
            decoding: try Data(contentsOf: folder.appendingPathComponent("movie.mkv.partial.json")),
            as: UTF8.self)
        XCTAssertTrue(info.contains(#""entityTag":"\"m1\"""#), info)
        XCTAssertTrue(info.contains("Mon, 02 Mar 2026 10:00:00 GMT"), info)
        XCTAssertTrue(info.contains("/movie"), info)
        XCTAssertFalse(info.contains("secret"), info)
        XCTAssertEqual(NetworkLayer.partialDownloadSize(for: destination), 524_288)
    }

    func testAReplyWithoutAValidatorLeavesNothingToResume() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        let destination = folder.appendingPathComponent("feed.xml")
        server.enqueue(MockResponse(body: TestData.bytes(200_000)).withFault(.disconnectMidBody))

        let result = outcome(of: URL.self) { recorder in
            network.send(
                .download(urlString: "feed", to: destination),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }

        guard case .failure(.transport(let error))? = result else {
            return XCTFail("expected a lost connection, got \(String(describing: result))")
        }
        XCTAssertEqual(error.code, .networkConnectionLost)
        XCTAssertEqual(fileNames(in: folder), [], "bytes that can't be resumed safely are not kept")
    }

    func testTransfersLeaveNoFileInTheTemporaryDirectory() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        let temporary = FileManager.default.temporaryDirectory
        let before = Set(fileNames(in: temporary))
        server.enqueue(.file(TestData.bytes(300_000)))
        server.enqueue(MockResponse(body: TestData.bytes(300_000)).withFault(.disconnectMidBody))

        for name in ["done.bin", "cut.bin"] {
            _ = outcome(of: URL.self) { recorder in
                network.send(
                    .download(urlString: name, to: folder.appendingPathComponent(name)),
                    successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
            }
        }

        // Not the layer's: this suite's own folders, and the Swift driver's scratch folders, which a build
        // running beside the tests makes in the same directory.
        let appeared = Set(fileNames(in: temporary)).subtracting(before).filter {
            !$0.hasPrefix("NetworkLayerTransferTests-") && !$0.hasPrefix("TemporaryDirectory.")
        }
        XCTAssertEqual(appeared, [])
        XCTAssertEqual(fileNames(in: folder), ["done.bin"])
    }
}

extension TransferEdgeTests {
    func testA206NobodyAskedForIsAnErrorNotAShortFile() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeFolder()
        server.enqueue(
            MockResponse(status: 206, headers: ["Content-Range": "bytes 0-9/1000"], body: Data(count: 10)))

        let result = outcome(of: URL.self) { recorder in
            network.send(
                .download(urlString: "part", to: folder.appendingPathComponent("part.bin")),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }

        guard case .failure(.transport(let error))? = result else {
            return XCTFail("expected an error, got \(String(describing: result))")
        }
        XCTAssertEqual(error.code, .badServerResponse)
        XCTAssertEqual(fileNames(in: folder), [])
    }

    func testACallersOwnRangeDownloadsJustThatPart() throws {
        let server = try MockServer.started(in: self)
        let network = NetworkLayer(baseURL: server.baseURL)
        let destination = try makeFolder().appendingPathComponent("head.bin")
        let data = TestData.bytes(10_000)
        server.enqueue(.file(data))

        let result = outcome(of: URL.self) { recorder in
            network.send(
                .download(urlString: "file", to: destination, headers: ["Range": "bytes=0-99"]),
                successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }

        XCTAssertEqual(try result?.get(), destination)
        XCTAssertEqual(try Data(contentsOf: destination), data.prefix(100))
    }
}
