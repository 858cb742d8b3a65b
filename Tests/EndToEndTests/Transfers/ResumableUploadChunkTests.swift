import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// A resumable upload goes in appends of at most ``ResumableUpload/chunkSize`` bytes (1 MiB by default),
/// over both protocols; a `413` halves the append down to 64 KiB, then fails the upload; against a server
/// that keeps nothing of a cut append, a drop sends again only the append it cut.
final class ResumableUploadChunkTests: XCTestCase {
    private static let mebibyte = 1 << 20

    private struct Run {
        var outcome: Result<URL, NetworkError>?
        var appends: [UploadAppend]
        var stored: Data?
        var source: Data
    }

    func testATusUploadGoesInAppendsOfOneMebibyteByDefault() throws {
        let server = try MockServer.started(in: self)
        let tus = server.serveTus()
        let run = try upload(.tus, size: 5 * Self.mebibyte / 2, to: server, files: tus.directory) {
            tus.appends
        }

        XCTAssertNotNil(run.outcome?.value, String(describing: run.outcome))
        XCTAssertEqual(ResumableUpload.tus.chunkSize, Int64(Self.mebibyte))
        XCTAssertEqual(run.appends.map(\.offset), [0, 1, 2].map { Int64($0 * Self.mebibyte) })
        XCTAssertEqual(run.appends.map(\.length), [Self.mebibyte, Self.mebibyte, Self.mebibyte / 2])
        XCTAssertTrue(run.stored == run.source, "the stored bytes differ from the source's")
    }

    func testADraftUploadMarksEveryAppendButTheLastIncomplete() throws {
        let server = try MockServer.started(in: self)
        let draft = server.serveResumableUploads()
        var resumable = ResumableUpload.ietfDraft
        resumable.chunkSize = 768 << 10
        let run = try upload(resumable, size: 2 * Self.mebibyte, to: server, files: draft.directory) {
            draft.appends
        }

        XCTAssertNotNil(run.outcome?.value, String(describing: run.outcome))
        XCTAssertEqual(run.appends.map(\.offset), [0, 768 << 10, 1_536 << 10])
        XCTAssertEqual(run.appends.map(\.length), [768 << 10, 768 << 10, 512 << 10])
        let patches = server.recordedRequests.filter { $0.method == "PATCH" }
        XCTAssertEqual(patches.map { $0.header("Upload-Complete") }, ["?0", "?0", "?1"])
        XCTAssertTrue(run.stored == run.source, "the stored bytes differ from the source's")
    }

    func testA413HalvesTheAppendUntilTheServerTakesItWhateverThePolicy() throws {
        let server = try MockServer.started(in: self)
        let tus = server.serveTus()
        tus.maxRequestBodySize = 300_000
        let run = try upload(.tus, size: Self.mebibyte, to: server, files: tus.directory) { tus.appends }

        XCTAssertNotNil(run.outcome?.value, String(describing: run.outcome))
        // Refused before their bodies (1 MiB, then 512 KiB), then 256 KiB at a time.
        XCTAssertEqual(run.appends.map(\.length), [0, 0] + Array(repeating: 256 << 10, count: 4))
        XCTAssertEqual(run.appends.map(\.offset), [0, 0, 0, 256 << 10, 512 << 10, 768 << 10])
        XCTAssertTrue(run.stored == run.source, "the stored bytes differ from the source's")
    }

    func testA413ToAnAppendOf64KiBFailsTheUpload() throws {
        let server = try MockServer.started(in: self)
        let draft = server.serveResumableUploads()
        draft.maxRequestBodySize = 60_000
        let run = try upload(.ietfDraft, size: Self.mebibyte, to: server, files: draft.directory) {
            draft.appends
        }

        guard case .unacceptableStatusCode(413, _, _)? = run.outcome?.error else {
            return XCTFail("expected the 413, got \(String(describing: run.outcome))")
        }
        let refused = server.recordedRequests.filter { $0.method == "PATCH" }
            .map { $0.header("Content-Length") }
        XCTAssertEqual(refused, ["1048576", "524288", "262144", "131072", "65536"], "halved down to 64 KiB")
    }

    /// tussi and asgi-tus keep nothing of a `PATCH` cut short: a drop in the third append sends that
    /// append again, not the rest of the file.
    func testAgainstAServerKeepingNothingOfACutAppendADropSendsThatAppendAgain() throws {
        let server = try MockServer.started(in: self)
        let tus = server.serveTus()
        tus.keepsInterruptedAppends = false
        let tusBody = tus.bodyHandler
        let armed = Locked(true)
        // Scripted once the second append is claimed, so its reply closes the connection and the third
        // append, cut at half, goes on a fresh one (see `TusHandler.cutNextAppend(afterBytes:)`).
        server.bodyHandler = { request in
            let receiver = tusBody(request)
            if request.header("Upload-Offset") == String(Self.mebibyte),
                armed.withLock({ armed in
                    defer { armed = false }
                    return armed
                })
            {
                tus.cutNextAppend(afterBytes: Self.mebibyte / 2)
            }
            return receiver
        }
        let run = try upload(
            .tus, size: 4 * Self.mebibyte, to: server, files: tus.directory,
            policy: RetryPolicy(maximumAttempts: 3, initialDelay: 0)
        ) { tus.appends }

        XCTAssertNotNil(run.outcome?.value, String(describing: run.outcome))
        XCTAssertEqual(
            run.appends.map(\.offset), [0, 1, 2, 2, 3].map { Int64($0 * Self.mebibyte) },
            "the cut append again, from where it began")
        XCTAssertEqual(run.appends.map(\.length).reduce(0, +), 4 * Self.mebibyte + Self.mebibyte / 2)
        XCTAssertTrue(run.stored == run.source, "the stored bytes differ from the source's")
    }

    /// Uploads `size` bytes to `server` (which serves the protocol into `files`) with `policy`, and returns
    /// what the server saw.
    private func upload(
        _ resumable: ResumableUpload, size: Int, to server: MockServer, files: URL,
        policy: RetryPolicy = RetryPolicy.none, appends: () -> [UploadAppend]
    ) throws -> Run {
        addTeardownBlock { try? FileManager.default.removeItem(at: files) }
        let source = TestData.bytes(size, seed: 46)
        let file = try writeFile(source, named: "photo.jpg", in: makeFolder())
        let network = NetworkLayer(baseURL: server.baseURL)
        var request = NetworkRequest.upload(urlString: "files", fileURL: file, resumable: resumable)
        request.retryPolicy = policy
        let outcome = try transferOutcome(timeout: 30) { success, failure in
            network.send(request, successHandler: success, errorHandler: failure)
        }
        let stored =
            (try? FileManager.default.contentsOfDirectory(at: files, includingPropertiesForKeys: nil))?
            .first.flatMap { try? Data(contentsOf: $0) }
        return Run(outcome: outcome, appends: appends(), stored: stored, source: source)
    }
}
