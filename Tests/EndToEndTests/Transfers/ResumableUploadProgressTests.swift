import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// A server can't keep a resumable upload alive by acknowledging a byte at a time (issue 45): a step that
/// moves the offset by less than min(64 KiB, what remains) counts as a failure for the retry policy, and
/// the request's total time limit covers every step and wait.
final class ResumableUploadProgressTests: XCTestCase {
    private static let size = 64 * 1_024

    /// A tus server that acknowledges one byte of each `PATCH` (and, after `patience` of them, refuses the
    /// next with 400, so a client that would go on for ever still ends), and every `PATCH` received.
    private func stingyServer(patience: Int = 20) throws -> (MockServer, Locked<[Int64]>) {
        let server = try MockServer.started(in: self)
        let offset = Locked<Int64>(0)
        let patches = Locked<[Int64]>([])
        let tus = ["Tus-Resumable": "1.0.0"]
        server.handler = { request in
            switch request.method {
            case "POST":
                return MockResponse(status: 201, headers: tus.merging(["Location": "/uploads/1"]) { $1 })
            case "HEAD":
                let now = offset.withLock { $0 }
                return MockResponse(status: 200, headers: tus.merging(["Upload-Offset": String(now)]) { $1 })
            case "PATCH":
                let sent = request.header("Upload-Offset").flatMap(Int64.init) ?? -1
                let count = patches.withLock {
                    $0.append(sent)
                    return $0.count
                }
                guard count <= patience else { return MockResponse(status: 400, headers: tus) }
                let acknowledged = offset.withLock { stored in
                    stored = sent + 1
                    return stored
                }
                return MockResponse(
                    status: 204, headers: tus.merging(["Upload-Offset": String(acknowledged)]) { $1 })
            default:
                return MockResponse(status: 405, headers: tus)
            }
        }
        return (server, patches)
    }

    private func file() throws -> URL {
        try writeFile(TestData.bytes(Self.size, seed: 45), named: "photo.jpg", in: makeFolder())
    }

    func testAStepThatMovesTheOffsetByAByteCountsAsAFailureSoThePolicyEndsTheUpload() throws {
        let (server, patches) = try stingyServer()
        var request = NetworkRequest.upload(urlString: "files", fileURL: try file(), resumable: .tus)
        request.retryPolicy = RetryPolicy(maximumAttempts: 3, initialDelay: 0)

        let result = outcome(of: URL.self, timeout: 30) { recorder in
            NetworkLayer(baseURL: server.baseURL).send(
                request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }

        XCTAssertEqual(patches.withLock { $0 }, [0, 1, 2], "three attempts, as the policy allows")
        XCTAssertTrue(
            result?.error?.isTimedOut == true, "a transfer too slow to go on: \(String(describing: result))")
    }

    func testTheRequestsTotalTimeLimitEndsAnUploadKeptAliveAByteAtATime() throws {
        let (server, patches) = try stingyServer()
        let clock = TestClock()
        let network = NetworkLayer(
            clock: clock, baseURL: server.baseURL, callbackQueue: DispatchQueue(label: "stingy.callbacks"),
            retryPolicy: RetryPolicy(maximumAttempts: 1_000, initialDelay: 0.5, maximumDelay: 0.5))
        var request = NetworkRequest.upload(urlString: "files", fileURL: try file(), resumable: .tus)
        request.resourceTimeout = 3
        let recorder = OutcomeRecorder<URL>(expectation(description: "the upload ends"))
        let task = network.send(
            request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        defer { task.cancel() }

        // Each byte acknowledged is a failure, followed by the policy's wait on the test clock.
        for step in 1...6 {
            guard clock.wait(until: { $0.waits.count == step }) else {
                return XCTFail(
                    "no wait after acknowledgement \(step): \(patches.withLock { $0 }.count) PATCHes")
            }
            clock.advance(by: 0.5)
        }
        wait(for: [recorder.expectation], timeout: 10)

        XCTAssertEqual(clock.elapsed, 3)
        XCTAssertEqual(recorder.results.count, 1)
        XCTAssertTrue(recorder.results.first?.error?.isTimedOut == true, "\(recorder.results)")
        XCTAssertLessThanOrEqual(patches.withLock { $0 }.count, 7, "a PATCH at most per wait")
    }
}
