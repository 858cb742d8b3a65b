import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// An append refused as out of step with the server (409, or 403 as some IETF draft servers answer: the
/// server's offset moved, say while it still read an append the client gave up on) is followed by asking
/// the offset again, up to 3 times, waiting 0.2, 0.4 and 0.8 s on the layer's clock, whatever the request's
/// retry policy: the protocols resynchronise so; it is no retry of the same request.
final class ResumableUploadConflictTests: XCTestCase {
    private static let size = 1_048_576

    private struct Run {
        var outcome: Result<URL, NetworkError>?
        var waits: [TimeInterval]
        var methods: [String]
        var stored: Data?
        var source: Data
    }

    func testAConflictingAppendAsksTheOffsetAgainAfterAWaitEvenWithoutRetries() throws {
        let run = try upload(.tus, refusals: [409])

        XCTAssertNotNil(run.outcome?.value, String(describing: run.outcome))
        XCTAssertEqual(run.waits, [0.2], "one wait, on the layer's clock")
        XCTAssertEqual(run.methods, ["POST", "PATCH", "HEAD", "PATCH"])
        XCTAssertTrue(run.stored == run.source, "the stored bytes differ from the source's")
    }

    func testADraftServerRefusingTheOffsetWith403IsAskedAgainToo() throws {
        let run = try upload(.ietfDraft, refusals: [403, 409])

        XCTAssertNotNil(run.outcome?.value, String(describing: run.outcome))
        XCTAssertEqual(run.waits, [0.2, 0.4], "the wait doubles")
        XCTAssertEqual(run.methods, ["POST", "PATCH", "HEAD", "PATCH", "HEAD", "PATCH"])
        XCTAssertTrue(run.stored == run.source, "the stored bytes differ from the source's")
    }

    func testTheOffsetIsAskedThreeTimesThenTheConflictEndsTheUpload() throws {
        let run = try upload(.tus, refusals: [409, 409, 409, 409])

        guard case .unacceptableStatusCode(409, _, _)? = run.outcome?.error else {
            return XCTFail("expected the 409, got \(String(describing: run.outcome))")
        }
        XCTAssertEqual(run.waits, [0.2, 0.4, 0.8])
        XCTAssertEqual(
            run.methods, ["POST"] + Array(repeating: ["PATCH", "HEAD"], count: 3).flatMap { $0 } + ["PATCH"])
    }

    /// Uploads a file of ``size`` bytes with `RetryPolicy.none` on a layer with a test clock, its first
    /// appends refused with `refusals`' statuses, advancing the clock through each wait the upload asks.
    private func upload(_ resumable: ResumableUpload, refusals: [Int]) throws -> Run {
        let server = try MockServer.started(maxRequestBodySize: 2 * Self.size, in: self)
        let files: URL
        switch resumable.uploadProtocol {
        case .tus:
            let tus = server.serveTus()
            for status in refusals { tus.failNextAppend(status: status) }
            files = tus.directory
        default:
            let draft = server.serveResumableUploads()
            for status in refusals { draft.failNextAppend(status: status) }
            files = draft.directory
        }
        addTeardownBlock { try? FileManager.default.removeItem(at: files) }
        let source = TestData.bytes(Self.size, seed: 44)
        let file = try writeFile(source, named: "video.mp4", in: makeFolder())
        let clock = TestClock()
        // Not the main queue: this test waits for the clock on it.
        let queue = DispatchQueue(label: "conflict.callbacks")
        let network = NetworkLayer(clock: clock, baseURL: server.baseURL, callbackQueue: queue)
        var request = NetworkRequest.upload(urlString: "files", fileURL: file, resumable: resumable)
        request.retryPolicy = RetryPolicy.none
        let ended = expectation(description: "the upload ends")
        let outcome = Locked<Result<URL, NetworkError>?>(nil)

        network.send(
            request,
            successHandler: { response in
                outcome.withLock { $0 = .success(response.value) }
                ended.fulfill()
            },
            errorHandler: { error in
                outcome.withLock { $0 = .failure(error) }
                ended.fulfill()
            })
        for count in 1...min(refusals.count, 3) {
            guard clock.wait(until: { $0.waits.count == count }) else { break }
            clock.advance(by: clock.waits[count - 1])
        }
        wait(for: [ended], timeout: 20)
        queue.sync {}
        let stored =
            (try? FileManager.default.contentsOfDirectory(at: files, includingPropertiesForKeys: nil))?
            .first.flatMap { try? Data(contentsOf: $0) }
        return Run(
            outcome: outcome.withLock { $0 }, waits: clock.waits,
            methods: server.recordedRequests.map(\.method), stored: stored, source: source)
    }
}
