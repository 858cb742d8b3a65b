import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

// The README's samples for downloads and uploads, verbatim (`ReadmeSyncTests`).

struct StoredDocument: Codable, Equatable {
    let id: Int
}

/// Stands in for a screen in the samples.
private struct ReportScreen {
    func showProgress(_ fraction: Double) {}
    func open(_ file: URL) {}
    func show(_ text: String) {}
    func show(_ document: StoredDocument) {}
}

enum ReadmeTransferExample {
    fileprivate static func download(network: NetworkLayer, documents: URL, screen: ReportScreen) {
        // Written beside the destination as it arrives, moved there when complete; an earlier interrupted
        // download to the same destination is resumed
        let destination = documents.appendingPathComponent("report.pdf")
        var request = NetworkRequest.download(urlString: "files/report.pdf", to: destination)
        request.progressHandler = { progress in screen.showProgress(progress.fractionCompleted ?? 0) }
        network.send(
            request,
            successHandler: { response in screen.open(response.value) },
            errorHandler: { error in screen.show(error.message) })

        // What an interrupted download left, and how to start over instead
        if let bytes = NetworkLayer.partialDownloadSize(for: destination) {
            print("\(bytes) bytes to resume from")
        }
        NetworkLayer.removePartialDownload(for: destination)  // or pass options: .restart
        network.send(
            .download(urlString: "files/report.pdf", to: destination, options: [.replaceExisting, .restart]),
            successHandler: { response in screen.open(response.value) },
            errorHandler: { error in screen.show(error.message) })
    }

    fileprivate static func upload(network: NetworkLayer, reportURL: URL, screen: ReportScreen) {
        // A file, streamed from disk; the reply decoded as usual
        network.send(
            NetworkRequest<StoredDocument>.upload(
                urlString: "documents", fileURL: reportURL, contentType: "application/pdf"),
            successHandler: { response in screen.show(response.value) },
            errorHandler: { error in screen.show(error.message) })

        // A form: fields and files, the files streamed from disk
        var form = MultipartFormData()
        form.append("Quarterly report", name: "title")
        form.append(fileURL: reportURL, name: "file", mimeType: "application/pdf")
        var upload = NetworkRequest<StoredDocument>.upload(urlString: "documents", multipart: form)
        upload.progressHandler = { progress in screen.showProgress(progress.fractionCompleted ?? 0) }
        network.send(
            upload,
            successHandler: { response in screen.show(response.value) },
            errorHandler: { error in screen.show(error.message) })
    }
}

extension ReadmeTransferExample {
    /// The article's `async` forms (DownloadsAndUploads.md).
    @MainActor
    fileprivate static func awaited(
        network: NetworkLayer, destination: URL, reportURL: URL, screen: ReportScreen
    ) async throws(NetworkError) -> (URL, StoredDocument) {
        var request = NetworkRequest.download(urlString: "files/report.pdf", to: destination)
        request.progressHandler = { progress in screen.showProgress(progress.fractionCompleted ?? 0) }
        let file = try await network.send(request).value

        let document: StoredDocument = try await network.send(
            .upload(urlString: "documents", fileURL: reportURL, contentType: "application/pdf")
        ).value
        return (file, document)
    }
}

final class ReadmeTransferExampleTests: XCTestCase {
    func testADummyAnswersDownloadsAndRecordsUploads() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let destination = folder.appendingPathComponent("report.pdf")
        let photo = folder.appendingPathComponent("photo.jpg")
        try Data([0xFF, 0xD8]).write(to: photo)

        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.stub(.get, "/files/report.pdf", returning: Data("%PDF-1.7".utf8))
        network.send(
            .download(urlString: "files/report.pdf", to: destination),
            successHandler: { response in
                XCTAssertEqual(try? Data(contentsOf: response.value), Data("%PDF-1.7".utf8))
            },
            errorHandler: { error in XCTFail(error.message) })

        network.send(
            NetworkRequest<EmptyResponse>.upload(urlString: "avatars", fileURL: photo),
            successHandler: { _ in }, errorHandler: { error in XCTFail(error.message) })
        XCTAssertEqual(network.recordedRequests.last?.upload, .file(photo))
        XCTAssertEqual(try network.recordedRequests.last?.upload?.bytes(), Data([0xFF, 0xD8]))
    }
}
