import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A resumable upload on the dummy, as a presenter sees it: progress the test moves step by step (on
/// held replies) or scripts (`scriptedProgress`), pausing and stepping back to what the server had after
/// an interruption, then exactly one outcome; recorded as what it sends.
final class DummyResumableUploadTests: XCTestCase {
    private var file: URL!

    override func setUpWithError() throws {
        file = FileManager.default.temporaryDirectory.appendingPathComponent("dummy-upload-\(UUID()).mov")
        try Data(count: 1000).write(to: file)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: file)
    }

    private var uploadURL: URL { URL(fileURLWithPath: "/files/7") }

    private func upload() -> NetworkRequest<URL> {
        var request = NetworkRequest.upload(
            urlString: "https://api.example.com/files", fileURL: file, resumable: .tus)
        request.retryPolicy = RetryPolicy(maximumAttempts: 5, initialDelay: 0)
        return request
    }

    private func send(
        on network: DummyNetworkLayer, events: Captured<String>, done: XCTestExpectation? = nil
    ) -> NetworkTask {
        var request = upload()
        request.progressHandler = { events.success("\($0.completedBytes)/\($0.expectedBytes ?? -1)") }
        return network.send(
            request,
            successHandler: { response in
                events.success("uploaded \(response.value.path)")
                done?.fulfill()
            },
            errorHandler: { error in
                events.failure(error)
                done?.fulfill()
            })
    }

    func testHeldProgressComesAsReportedWithTheFilesLengthThenOneOutcomeAndNothingAdded() throws {
        let network = DummyNetworkLayer()
        network.holdsReplies = true
        let events = Captured<String>()
        _ = send(on: network, events: events)
        let held = try XCTUnwrap(network.pendingRequests.first)

        held.reportProgress(completedBytes: 600)
        held.reportProgress(completedBytes: 500)
        held.reportProgress(completedBytes: 1000)
        held.succeed(with: uploadURL)
        held.reportProgress(completedBytes: 1000)  // after the end: nothing

        XCTAssertEqual(events.values, ["600/1000", "500/1000", "1000/1000", "uploaded /files/7"])
        XCTAssertEqual(events.count, 4)
        XCTAssertEqual(network.recordedRequests.map(\.method), [.post])
        XCTAssertEqual(network.recordedRequests.first?.upload, .file(file))
    }

    func testAnInterruptionThePresenterCancelsEndsOnceCancelledAndLaterReportsDoNothing() throws {
        let network = DummyNetworkLayer()
        network.holdsReplies = true
        let events = Captured<String>()
        let task = send(on: network, events: events)
        let held = try XCTUnwrap(network.pendingRequests.first)
        held.reportProgress(completedBytes: 300)

        task.cancel()
        held.reportProgress(completedBytes: 400)
        held.succeed(with: uploadURL)

        XCTAssertEqual(events.values, ["300/1000"])
        guard case .cancelled? = events.errors.first, events.errors.count == 1 else {
            return XCTFail("\(events.errors)")
        }
        XCTAssertEqual(network.cancelledRequests.count, 1)
        XCTAssertTrue(network.pendingRequests.isEmpty)
    }

    func testHeldProgressAndTheOutcomeRunInOrderOnTheDeliveryQueue() throws {
        let queue = DispatchQueue(label: "dummy-upload-delivery")
        let network = DummyNetworkLayer(deliveryQueue: queue)
        network.holdsReplies = true
        let events = Captured<String>()
        let done = expectation(description: "uploaded")
        var request = upload()
        request.progressHandler = { _ in
            dispatchPrecondition(condition: .onQueue(queue))
            events.success("progress")
        }
        network.send(
            request,
            successHandler: { _ in
                dispatchPrecondition(condition: .onQueue(queue))
                events.success("uploaded")
                done.fulfill()
            },
            errorHandler: { XCTFail("\($0)") })
        let held = try XCTUnwrap(network.pendingRequests.first)

        held.reportProgress(completedBytes: 250, expectedBytes: 2000)
        held.succeed(with: uploadURL)

        wait(for: [done], timeout: 5)
        XCTAssertEqual(events.values, ["progress", "uploaded"])
    }

    func testScriptedProgressOfAnInterruptedUploadThenItsFailure() {
        let network = DummyNetworkLayer()
        network.scriptedProgress = [600, 500, 800].map {
            TransferProgress(completedBytes: $0, expectedBytes: 1000)
        }
        network.stub(.post, "https://api.example.com/files", failingWith: .invalidResponse)
        let events = Captured<String>()

        _ = send(on: network, events: events)

        XCTAssertEqual(events.values, ["600/1000", "500/1000", "800/1000"])
        guard case .invalidResponse? = events.errors.first, events.count == 4 else {
            return XCTFail("\(events.values) \(events.errors)")
        }
        XCTAssertEqual(network.recordedRequests.count, 1)
    }
}
