import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// The `async` form of a download cancelled by its `Task` keeps the partial download for a resume, as
/// `cancel()` does.
final class AsyncDownloadCancelTests: XCTestCase {
    func testCancellingTheTaskKeepsThePartialDownload() async throws {
        let server = try MockServer.started(in: self)
        let data = TestData.bytes(8 * 1024 * 1024)
        server.enqueue(MockResponse.file(data).throttled(bytes: 64 * 1024, every: 0.01))
        let network = NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: .global())
        let folder = try makeFolder()
        let destination = folder.appendingPathComponent("video.mp4")
        let started = expectation(description: "bytes arrived")
        started.assertForOverFulfill = false
        var request = NetworkRequest.download(urlString: "video", to: destination)
        request.progressHandler = { progress in
            if progress.completedBytes > 256 * 1024 { started.fulfill() }
        }
        let download = Task { [request] () async throws(NetworkError) -> URL in
            try await network.send(request).value
        }
        await fulfillment(of: [started], timeout: 10)
        download.cancel()
        let result = await download.result

        XCTAssertEqual((result.error as? NetworkError)?.isCancelled, true, "\(result)")
        let kept = try XCTUnwrap(NetworkLayer.partialDownloadSize(for: destination))
        XCTAssertGreaterThanOrEqual(kept, 256 * 1024)
        XCTAssertLessThan(kept, Int64(data.count))
        XCTAssertEqual(fileNames(in: folder), ["video.mp4.partial", "video.mp4.partial.json"])
    }
}
