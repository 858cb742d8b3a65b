import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// ``DummyNetworkLayer`` answering downloads (the stubbed bytes or file written to the destination) and
/// recording uploads (bytes, file, form), with scripted progress.
final class DummyTransferTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("DummyTransfers-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    func testADownloadWritesTheStubbedBytesToTheDestination() throws {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://files.example.com"))
        network.stub(.get, "/report.pdf", returning: Data("%PDF".utf8))
        let destination = folder.appendingPathComponent("report.pdf")
        let got = Captured<URL>()
        var progress: [TransferProgress] = []

        var request = NetworkRequest.download(urlString: "report.pdf", to: destination)
        request.progressHandler = { progress.append($0) }
        network.send(request, successHandler: { got.success($0.value) }, errorHandler: got.failure)

        XCTAssertEqual(got.values, [destination])
        XCTAssertEqual(try Data(contentsOf: destination), Data("%PDF".utf8))
        XCTAssertEqual(progress, [TransferProgress(completedBytes: 4, expectedBytes: 4)])
        let recorded = try XCTUnwrap(network.recordedRequests.first)
        XCTAssertEqual(recorded.url.absoluteString, "https://files.example.com/report.pdf")
        XCTAssertEqual(recorded.downloadDestination, destination)
        XCTAssertEqual(recorded.header("Accept"), "*/*")
    }

    func testADownloadCanBeAnsweredWithAFixtureFile() throws {
        let fixture = folder.appendingPathComponent("fixture.bin")
        try Data([1, 2, 3]).write(to: fixture)
        let network = DummyNetworkLayer()
        network.successResponse = fixture
        let destination = folder.appendingPathComponent("copy.bin")
        let got = Captured<URL>()

        network.send(
            .download(urlString: "https://x.example.com/f", to: destination),
            successHandler: { got.success($0.value) },
            errorHandler: got.failure)

        XCTAssertEqual(got.values, [destination])
        XCTAssertEqual(try Data(contentsOf: destination), Data([1, 2, 3]))
    }

    func testADownloadFailsAsTheRealLayerDoes() throws {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://files.example.com"))
        network.stub(.get, "/missing", returning: Data("gone".utf8), statusCode: 404)
        let existing = folder.appendingPathComponent("existing.txt")
        try Data("keep".utf8).write(to: existing)
        let notFound = Captured<URL>()
        let exists = Captured<URL>()

        network.send(
            .download(urlString: "missing", to: folder.appendingPathComponent("missing.txt")),
            successHandler: { notFound.success($0.value) }, errorHandler: notFound.failure)
        network.send(
            .download(urlString: "missing", to: existing), successHandler: { exists.success($0.value) },
            errorHandler: exists.failure)

        XCTAssertEqual(notFound.errors.first?.statusCode, 404)
        XCTAssertEqual(notFound.errors.first?.responseBody, Data("gone".utf8))
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("missing.txt").path))
        guard case .transport(let error)? = exists.errors.first else {
            return XCTFail("expected a file error, got \(exists.errors)")
        }
        XCTAssertEqual(error.code, .cannotCreateFile)
        XCTAssertEqual(try Data(contentsOf: existing), Data("keep".utf8))
        XCTAssertEqual(network.recordedRequests.count, 1)
        XCTAssertEqual(network.refusedRequests.count, 1)
    }

    func testUploadsAreRecordedWithWhatTheyWouldSend() throws {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.successResponse = ["id": 7]
        let photo = folder.appendingPathComponent("photo.png")
        try Data([0x89, 0x50]).write(to: photo)
        var form = MultipartFormData(boundary: "xyz")
        form.append("Ann", name: "owner")
        form.append(fileURL: photo, name: "photo")
        let ids = Captured<[String: Int]>()

        network.send(
            NetworkRequest<[String: Int]>.upload(
                urlString: "blobs", data: Data("raw".utf8), contentType: "text/plain"),
            successHandler: { ids.success($0.value) },
            errorHandler: ids.failure)
        network.send(
            NetworkRequest<EmptyResponse>.upload(urlString: "photos", method: .put, fileURL: photo),
            successHandler: { _ in }, errorHandler: ids.failure)
        network.send(
            NetworkRequest<[String: Int]>.upload(urlString: "albums", multipart: form),
            successHandler: { ids.success($0.value) }, errorHandler: ids.failure)

        XCTAssertEqual(ids.values, [["id": 7], ["id": 7]])
        let recorded = network.recordedRequests
        XCTAssertEqual(recorded.map(\.method), [.post, .put, .post])
        XCTAssertEqual(recorded.map(\.upload), [.data(Data("raw".utf8)), .file(photo), .multipart(form)])
        XCTAssertEqual(recorded[0].body, Data("raw".utf8))
        XCTAssertEqual(recorded[0].header("Content-Type"), "text/plain")
        XCTAssertEqual(recorded[1].header("Content-Type"), "image/png")
        XCTAssertEqual(recorded[1].header("Content-Length"), "2")
        XCTAssertEqual(recorded[2].header("Content-Type"), "multipart/form-data; boundary=xyz")
        XCTAssertEqual(recorded[2].upload?.parts?.map(\.name), ["owner", "photo"])
        let expectedForm =
            "--xyz\r\nContent-Disposition: form-data; name=\"owner\"\r\n\r\nAnn\r\n"
            + "--xyz\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"photo.png\"\r\n"
            + "Content-Type: image/png\r\n\r\n\u{89}P\r\n--xyz--\r\n"
        XCTAssertEqual(
            try recorded[2].upload?.bytes(), Data(expectedForm.unicodeScalars.map { UInt8($0.value) }))
        XCTAssertEqual(recorded[2].header("Content-Length"), String(expectedForm.unicodeScalars.count))
    }

    func testAnUploadOfAMissingFileIsRefusedAsTheRealLayerRefusesIt() {
        let network = DummyNetworkLayer()
        let got = Captured<EmptyResponse>()

        network.send(
            NetworkRequest<EmptyResponse>.upload(
                urlString: "https://x.example.com/files", fileURL: folder.appendingPathComponent("none")),
            successHandler: { got.success($0.value) }, errorHandler: got.failure)

        guard case .transport(let error)? = got.errors.first else {
            return XCTFail("expected a file error, got \(got.errors)")
        }
        XCTAssertEqual(error.code, .fileDoesNotExist)
        XCTAssertEqual(network.recordedRequests.count, 0)
        XCTAssertEqual(network.refusedRequests.count, 1)
    }

    func testScriptedProgressComesInOrderBeforeTheOutcomeOnTheDeliveryQueue() {
        let queue = DispatchQueue(label: "dummy-delivery")
        let network = DummyNetworkLayer(deliveryQueue: queue)
        network.successResponse = Data(count: 100)
        network.scriptedProgress = [
            TransferProgress(completedBytes: 0, expectedBytes: 100),
            TransferProgress(completedBytes: 50, expectedBytes: 100),
            TransferProgress(completedBytes: 100, expectedBytes: 100),
        ]
        let done = expectation(description: "downloaded")
        let events = Captured<String>()

        var request = NetworkRequest.download(
            urlString: "https://x.example.com/f", to: folder.appendingPathComponent("f"))
        request.progressHandler = { events.success("\($0.completedBytes)") }
        network.send(
            request,
            successHandler: { _ in
                events.success("done")
                done.fulfill()
            },
            errorHandler: { XCTFail("\($0)") })

        wait(for: [done], timeout: 5)
        XCTAssertEqual(events.values, ["0", "50", "100", "done"])
    }
}
