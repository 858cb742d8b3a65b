import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

/// A store's names at the end of their range, and a send racing the store's close.
final class TransferStoreBoundsTests: XCTestCase {
    /// An empty file named with the largest sequence would have made the first send's sequence overflow:
    /// a trap at every launch that sends something.
    func testAFileNamedWithTheLargestSequenceDoesNotTrapTheNextSend() throws {
        let folder = try makeOutboxFolder()
        let directory = folder.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data().write(to: directory.appendingPathComponent("18446744073709551615.x"))
        let server = try startedServer { _ in MockResponse(status: 200, text: "file") }
        let store = try TransferStore(
            directory: directory, layer: NetworkLayer(baseURL: server.baseURL),
            recordKey: Data(repeating: 1, count: 32))
        addTeardownBlock { store.close() }
        let request = NetworkRequest.download(urlString: "file", to: folder.appendingPathComponent("file"))
        let outcome = try transferOutcome { try store.send(request, successHandler: $0, errorHandler: $1) }
        guard case .success = outcome else { return XCTFail(String(describing: outcome)) }
    }

    /// A `close()` between a send's record write and the start of its run left the run going, never
    /// cancelled, after the store let its directory go. Raced many times (bounded in count and time): a
    /// send either throws `closed` or its run is one `close()` ends.
    func testASendRacingCloseThrowsClosedOrIsCancelledNeverRunsOn() throws {
        let server = try startedServer { _ in
            MockResponse(status: 200, text: "file").delayed(beforeHeaders: 5)
        }
        let layer = NetworkLayer(baseURL: server.baseURL)
        let folder = try makeOutboxFolder()
        let deadline = Date(timeIntervalSinceNow: 15)
        var (iterations, closedSends, leaked) = (0, 0, 0)
        while iterations < 400, Date() < deadline {
            iterations += 1
            let directory = folder.appendingPathComponent("s\(iterations)")
            let store = try TransferStore(directory: directory, layer: layer)
            let destination = folder.appendingPathComponent("f\(iterations)")
            let closed = Locked(false)
            DispatchQueue.concurrentPerform(iterations: 2) { branch in
                if branch == 1 { return store.close() }
                let request = NetworkRequest.download(urlString: "file", to: destination)
                do {
                    try store.send(request, successHandler: { _ in }, errorHandler: { _ in })
                } catch {
                    closed.withLock { $0 = (error as? TransferStoreError) == .closed }
                }
            }
            if closed.withLock({ $0 }) { closedSends += 1 }
            let running = store.state.withLock { $0.tasks }
            if !running.isEmpty { leaked += 1 }
            for task in running.values { task.cancel() }
        }
        XCTAssertEqual(
            leaked, 0, "runs left going after close(), in \(iterations) races (\(closedSends) sends closed)")
    }
}
