// The Swift samples of NetworkTestSupport's "Testing presenters" article, section "Uploads that
// resume", exactly as printed there (see ReadmeSyncTests).

import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

final class VideoUploadPresenter {
    private let networkLayer: NetworkLayer
    private var upload: NetworkTask?
    private(set) var progressLabel = ""
    private(set) var uploadedURL: URL?

    init(networkLayer: NetworkLayer = NetworkLayer()) {
        self.networkLayer = networkLayer
    }

    func upload(_ video: URL) {
        var request = NetworkRequest.upload(
            urlString: "https://api.example.com/files", fileURL: video, resumable: .tus)
        request.retryPolicy = RetryPolicy(maximumAttempts: 5)
        request.progressHandler = { progress in
            self.progressLabel = "\(Int((progress.fractionCompleted ?? 0) * 100))%"
        }
        upload = networkLayer.send(
            request,
            successHandler: { response in
                self.progressLabel = "Uploaded"
                self.uploadedURL = response.value
            },
            errorHandler: { error in self.progressLabel = "Not uploaded: \(error.message)" })
    }

    func cancel() {
        upload?.cancel()
    }
}

final class VideoUploadPresenterTests: XCTestCase {
    func testProgressPausesWhileTheConnectionIsLostThenContinuesFromWhatTheServerHas() throws {
        let video = FileManager.default.temporaryDirectory.appendingPathComponent("\(UUID()).mov")
        try Data(count: 1000).write(to: video)
        defer { try? FileManager.default.removeItem(at: video) }
        let network = DummyNetworkLayer()
        network.holdsReplies = true
        let presenter = VideoUploadPresenter(networkLayer: network)

        presenter.upload(video)
        let upload = try XCTUnwrap(network.pendingRequests.first)
        upload.reportProgress(completedBytes: 600)
        XCTAssertEqual(presenter.progressLabel, "60%")

        // The connection drops: the layer asks the server what it has and waits to retry. Nothing of it
        // reaches the presenter, whose label stays where it was.
        upload.reportProgress(completedBytes: 500)  // the server had 500 bytes: the rest goes out
        XCTAssertEqual(presenter.progressLabel, "50%")
        upload.reportProgress(completedBytes: 1000)
        upload.succeed(with: try XCTUnwrap(URL(string: "https://api.example.com/files/7")))

        XCTAssertEqual(presenter.progressLabel, "Uploaded")
        XCTAssertEqual(presenter.uploadedURL?.lastPathComponent, "7")
        XCTAssertEqual(network.recordedRequests.map(\.upload), [.file(video)])
    }
}
