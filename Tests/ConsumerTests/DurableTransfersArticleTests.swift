import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// The "Durable transfers" article's presenter against a tus `MockServer`: the progress it shows, once
/// through a cut, and an upload the last run left, found by a new store and finished at launch.
final class DurableTransfersArticleTests: XCTestCase {
    private static let size = 4 << 20
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("DurableArticle-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    func testAnUploadCutInTheMiddleShowsItsProgressAndFinishesOnce() throws {
        let (server, tus) = try startServer()
        let (video, bytes) = try makeVideo()
        let store = try TransferStore(directory: storeFolder, layer: NetworkLayer(baseURL: server.baseURL))
        let view = RecordingTransfersView(expecting: 1)
        let presenter = TransfersPresenter(store: store, view: view)
        // In the middle of the first append (of 1 MiB).
        tus.cutNextAppend(afterBytes: Self.size / 8)

        presenter.upload(video)

        wait(for: [view.finished], timeout: 60)
        XCTAssertEqual(view.done, [video])
        XCTAssertEqual(view.failures, [])
        XCTAssertEqual(view.progress.last?.completedBytes, Int64(Self.size))
        XCTAssertEqual(
            tus.appends.prefix(2).map(\.offset), [0, Int64(Self.size / 8)], "resumed after the cut")
        XCTAssertEqual(tus.appends.map(\.length).reduce(0, +), Self.size, "nothing sent twice")
        XCTAssertEqual(try Data(contentsOf: try XCTUnwrap(tus.storedFiles.first)), bytes)
        XCTAssertEqual(store.unfinishedTransfers, [])
    }

    func testAnUploadTheLastRunLeftIsFinishedAtLaunch() throws {
        let (server, tus) = try startServer()
        let (video, bytes) = try makeVideo()
        try leaveAnUnfinishedUpload(of: video, on: server, tus)

        // The next launch: a new store on the same folder, and a new presenter.
        let store = try TransferStore(directory: storeFolder, layer: NetworkLayer(baseURL: server.baseURL))
        let view = RecordingTransfersView(expecting: 1)
        let presenter = TransfersPresenter(store: store, view: view)
        presenter.resumeAll()

        wait(for: [view.finished], timeout: 60)
        XCTAssertEqual(view.done, [video])
        XCTAssertEqual(view.failures, [])
        XCTAssertEqual(view.progress.first?.expectedBytes, Int64(Self.size), "shown before the resume")
        XCTAssertEqual(tus.storedFiles.count, 1, "not created again")
        XCTAssertEqual(tus.appends.dropFirst().first?.offset, Int64(Self.size / 8), "the rest only")
        XCTAssertEqual(tus.appends.map(\.length).reduce(0, +), Self.size, "nothing sent twice")
        XCTAssertEqual(try Data(contentsOf: tus.storedFiles[0]), bytes)
    }

    // MARK: - Support

    private var storeFolder: URL { folder.appendingPathComponent("Transfers") }

    private func startServer() throws -> (MockServer, TusHandler) {
        let server = MockServer()
        let tus = server.serveTus()
        try server.start()
        addTeardownBlock {
            server.stop()
            tus.removeStoredFiles()
        }
        return (server, tus)
    }

    private func makeVideo() throws -> (URL, Data) {
        var generator = SystemRandomNumberGenerator()
        let bytes = Data((0..<Self.size).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let video = folder.appendingPathComponent("video.mp4")
        try bytes.write(to: video)
        return (video, bytes)
    }

    /// An upload through a store that fails in its first append (no retries), as a run the system then
    /// killed leaves it; the store is closed, as the killed process's would be gone.
    private func leaveAnUnfinishedUpload(of video: URL, on server: MockServer, _ tus: TusHandler) throws {
        let ended = expectation(description: "the first run's upload ended")
        do {
            let store = try TransferStore(
                directory: storeFolder, layer: NetworkLayer(baseURL: server.baseURL))
            tus.cutNextAppend(afterBytes: Self.size / 8)
            var request = NetworkRequest.upload(urlString: "files", fileURL: video, resumable: .tus)
            request.retryPolicy = RetryPolicy.none
            try store.send(
                request, successHandler: { _ in ended.fulfill() }, errorHandler: { _ in ended.fulfill() })
            wait(for: [ended], timeout: 60)
            XCTAssertEqual(store.unfinishedTransfers.count, 1)
            store.close()
        }
    }
}

/// What the presenter showed, in order.
private final class RecordingTransfersView: TransfersView, @unchecked Sendable {
    // @unchecked: written on the layer's callback queue (main), read by the test after `finished`.
    private(set) var progress: [TransferProgress] = []
    private(set) var done: [URL] = []
    private(set) var failures: [String] = []
    let finished = XCTestExpectation(description: "every transfer ended")

    init(expecting count: Int) {
        finished.expectedFulfillmentCount = count
        finished.assertForOverFulfill = true
    }

    func show(_ file: URL, progress: TransferProgress) {
        self.progress.append(progress)
    }

    func showDone(_ file: URL) {
        done.append(file)
        finished.fulfill()
    }

    func showFailure(_ file: URL, _ message: String) {
        failures.append(message)
        finished.fulfill()
    }
}
