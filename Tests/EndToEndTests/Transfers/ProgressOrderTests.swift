import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Issue 32, decision 1: for one transfer, every progress call has returned before its completion
/// handler begins, and none starts after it, even on a concurrent callback queue.
///
/// The first progress call is made slow on purpose: it waits up to two seconds for the completion to
/// begin. A layer that lets the completion run meanwhile (on another thread of the concurrent queue) is
/// caught at once; a correct one makes the call wait out its window, then runs the completion.
final class ProgressOrderTests: XCTestCase {
    private static let window: TimeInterval = 2
    private let piece = Data(repeating: 7, count: 64 * 1024)

    /// What the handlers did, in order.
    private final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [String] = []
        private var firstProgress = true
        let progressRunning = DispatchSemaphore(value: 0)
        let completionBegan = DispatchSemaphore(value: 0)

        var all: [String] { lock.withLock { stored } }

        func append(_ event: String) {
            lock.withLock { stored.append(event) }
        }

        func progress(_: TransferProgress) {
            append("progress began")
            let isFirst = lock.withLock {
                defer { firstProgress = false }
                return firstProgress
            }
            if isFirst {
                progressRunning.signal()
                _ = completionBegan.wait(timeout: .now() + ProgressOrderTests.window)
            }
            append("progress ended")
        }

        func completion(_ name: String) {
            append(name)
            completionBegan.signal()
        }
    }

    /// A body of two pieces; the second is sent once `release` is signalled (or after 10 s).
    private func twoPieces(releasedBy release: DispatchSemaphore) -> MockResponse {
        let piece = piece
        return MockResponse(
            headers: ["Content-Type": "application/octet-stream"],
            content: .stream(length: 2 * piece.count) {
                var sent = 0
                return {
                    defer { sent += 1 }
                    switch sent {
                    case 0: return piece
                    case 1:
                        _ = release.wait(timeout: .now() + 10)
                        return piece
                    default: return nil
                    }
                }
            })
    }

    private func assertCompletionCameLast(_ events: [String], _ completion: String) {
        XCTAssertEqual(events.first, "progress began", "\(events)")
        XCTAssertEqual(events.last, completion, "no progress call ran after the completion began: \(events)")
        XCTAssertEqual(events.filter { $0 == completion }.count, 1, "\(events)")
        XCTAssertEqual(
            events.filter { $0 == "progress began" }.count, events.filter { $0 == "progress ended" }.count,
            "\(events)")
    }

    /// Lets whatever is already queued on `queue` run.
    private func drain(_ queue: DispatchQueue) {
        let drained = expectation(description: "queue drained")
        queue.async(flags: .barrier) { drained.fulfill() }
        wait(for: [drained], timeout: 10)
    }

    func testProgressEndsBeforeTheSuccessHandlerOnAConcurrentQueue() throws {
        let server = try MockServer.started(in: self)
        let events = Events()
        server.enqueue(twoPieces(releasedBy: events.progressRunning))
        let queue = DispatchQueue(label: "ProgressOrderTests.callbacks", attributes: .concurrent)
        let network = NetworkLayer(baseURL: server.baseURL, callbackQueue: queue)
        let destination = try makeFolder().appendingPathComponent("file.bin")
        let ended = expectation(description: "a handler ran")

        var request = NetworkRequest.download(urlString: "file", to: destination)
        request.progressHandler = events.progress
        network.send(
            request,
            successHandler: { _ in
                events.completion("success")
                ended.fulfill()
            },
            errorHandler: { error in
                events.completion("failure: \(error)")
                ended.fulfill()
            })

        wait(for: [ended], timeout: 20)
        drain(queue)
        assertCompletionCameLast(events.all, "success")
        XCTAssertEqual(try Data(contentsOf: destination).count, 2 * piece.count)
    }

    func testProgressEndsBeforeTheErrorHandlerOfACancelOnAConcurrentQueue() throws {
        let server = try MockServer.started(in: self)
        let events = Events()
        // The second piece waits until the test ends: the download is cancelled in between.
        let testEnded = DispatchSemaphore(value: 0)
        addTeardownBlock { testEnded.signal() }
        server.enqueue(twoPieces(releasedBy: testEnded))
        let queue = DispatchQueue(label: "ProgressOrderTests.callbacks", attributes: .concurrent)
        let network = NetworkLayer(baseURL: server.baseURL, callbackQueue: queue)
        let destination = try makeFolder().appendingPathComponent("file.bin")
        let ended = expectation(description: "a handler ran")

        var request = NetworkRequest.download(urlString: "file", to: destination)
        request.progressHandler = events.progress
        let task = network.send(
            request,
            successHandler: { _ in
                events.completion("success")
                ended.fulfill()
            },
            errorHandler: { error in
                events.completion(error.isCancelled ? "cancelled" : "failure: \(error)")
                ended.fulfill()
            })
        XCTAssertEqual(events.progressRunning.wait(timeout: .now() + 10), .success, "a progress call began")
        task.cancel()

        wait(for: [ended], timeout: 20)
        drain(queue)
        assertCompletionCameLast(events.all, "cancelled")
        NetworkLayer.removePartialDownload(for: destination)
    }
}
