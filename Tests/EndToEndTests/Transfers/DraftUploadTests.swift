import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// Uploads over the IETF resumable-upload draft (interop version 6) end to end on MockServer's draft
/// handler: the headers on the wire, an interrupted upload resumed from the server's offset and byte-exact,
/// a server without the draft met with the caller's fallback or a clear error, a cancel that ends the upload
/// once and removes it from the server.
final class DraftUploadTests: XCTestCase {
    private static let mebibyte = 1_048_576
    private static let size = 16 * mebibyte
    private static let resuming = RetryPolicy(maximumAttempts: 3, initialDelay: 0)

    private func draftServer() throws -> (MockServer, ResumableUploadHandler) {
        let server = try MockServer.started(maxRequestBodySize: Self.size + Self.mebibyte, in: self)
        let uploads = server.serveResumableUploads()
        addTeardownBlock { uploads.removeStoredFiles() }
        return (server, uploads)
    }

    private func source(seed: UInt64) throws -> URL {
        try BigFile.make(at: makeFolder().appendingPathComponent("video.mp4"), size: Self.size, seed: seed)
    }

    private func send(
        _ request: NetworkRequest<URL>, on network: NetworkLayer, log: TransferLog? = nil
    ) -> Result<URL, NetworkError>? {
        var request = request
        request.retryPolicy = Self.resuming
        request.progressHandler = log?.progress ?? { _ in }
        return outcome(of: URL.self, timeout: 60) { recorder in
            network.send(
                request,
                successHandler: { response in
                    log?.finish()
                    recorder.success(response.value)
                },
                errorHandler: { error in
                    log?.finish()
                    recorder.failure(error)
                })
        }
    }

    private func storedHash(_ uploads: ResumableUploadHandler) throws -> String {
        try BigFile.sha256(of: try XCTUnwrap(uploads.storedFiles.first))
    }

    func testAnUploadCutAtHalfResumesFromTheServersOffsetWithTheDraftsHeaders() throws {
        let (server, uploads) = try draftServer()
        let file = try source(seed: 61)
        let half = Int64(Self.size / 2)
        uploads.cutNextAppend(afterBytes: Int(half))
        let log = TransferLog()

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .ietfDraftInOneAppend),
            on: NetworkLayer(baseURL: server.baseURL), log: log)

        let uploaded = try XCTUnwrap(result?.value, String(describing: result))
        XCTAssertEqual(uploaded.path, "/draft-uploads/upload-000001")
        XCTAssertEqual(uploads.appends.map(\.offset), [0, half], "resumed from the server's offset")
        let resent =
            uploads.appends.dropFirst().reduce(0) { $0 + Int64($1.length) } - (Int64(Self.size) - half)
        XCTAssertLessThanOrEqual(resent, Int64(Self.mebibyte))
        XCTAssertEqual(try storedHash(uploads), try BigFile.sha256(of: file))
        XCTAssertEqual(log.reports.last?.completedBytes, Int64(Self.size))
        let requests = server.recordedRequests
        XCTAssertEqual(requests.map(\.method), ["POST", "PATCH", "HEAD", "PATCH"])
        XCTAssertEqual(
            requests.map { $0.header("Upload-Draft-Interop-Version") }, Array(repeating: "6", count: 4))
        XCTAssertTrue(requests.allSatisfy { $0.header("Tus-Resumable") == nil })
        let creation = requests[0]
        XCTAssertEqual(creation.header("Upload-Complete"), "?0")
        XCTAssertEqual(creation.header("Upload-Length"), String(Self.size))
        XCTAssertEqual(creation.bodyLength, 0, "the resource comes from the final reply, not a 104")
        for (patch, offset) in zip([requests[1], requests[3]], [0, half]) {
            XCTAssertEqual(patch.header("Content-Type"), "application/partial-upload")
            XCTAssertEqual(patch.header("Upload-Complete"), "?1")
            XCTAssertEqual(patch.header("Upload-Offset"), String(offset))
            XCTAssertEqual(patch.path, uploaded.path)
        }
        XCTAssertNil(requests[2].header("Upload-Offset"), "HEAD asks; it doesn't say")
    }

    func testAServerErrorOnceIsFollowedByAskingTheOffsetAndAppendingAgain() throws {
        let (server, uploads) = try draftServer()
        let file = try source(seed: 62)
        uploads.failNextAppend(status: 503)

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .ietfDraftInOneAppend),
            on: NetworkLayer(baseURL: server.baseURL))

        XCTAssertNotNil(result?.value, String(describing: result))
        XCTAssertEqual(server.recordedRequests.map(\.method), ["POST", "PATCH", "HEAD", "PATCH"])
        XCTAssertEqual(try storedHash(uploads), try BigFile.sha256(of: file))
    }

    func testAnUploadTheServerForgotStartsOver() throws {
        let (server, uploads) = try draftServer()
        let file = try source(seed: 63)
        uploads.cutNextAppend(afterBytes: Self.size / 2)
        let appending = uploads.bodyHandler
        server.bodyHandler = { request in
            guard var receiver = appending(request) else { return nil }
            let finish = receiver.finish
            receiver.finish = { ending in
                defer { if ending == .cut { uploads.forgetUploads() } }
                return finish(ending)
            }
            return receiver
        }

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .ietfDraftInOneAppend),
            on: NetworkLayer(baseURL: server.baseURL))

        XCTAssertEqual(result?.value?.path, "/draft-uploads/upload-000002", String(describing: result))
        XCTAssertEqual(server.recordedRequests.map(\.method), ["POST", "PATCH", "HEAD", "POST", "PATCH"])
        XCTAssertEqual(try storedHash(uploads), try BigFile.sha256(of: file))
    }

    func testALostReplyToTheLastAppendEndsTheUploadOnceTheServerSaysItIsComplete() throws {
        let (server, uploads) = try draftServer()
        let file = try source(seed: 67)
        uploads.cutNextAppend(afterBytes: Self.size)

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .ietfDraftInOneAppend),
            on: NetworkLayer(baseURL: server.baseURL))

        XCTAssertEqual(result?.value?.path, "/draft-uploads/upload-000001", String(describing: result))
        XCTAssertEqual(
            server.recordedRequests.map(\.method), ["POST", "PATCH", "HEAD"], "nothing sent again")
        XCTAssertEqual(try storedHash(uploads), try BigFile.sha256(of: file))
    }

    func testAnEmptyFileIsCreatedCompleteAtOnce() throws {
        let (server, uploads) = try draftServer()
        let file = try writeFile(Data(), named: "empty.bin", in: makeFolder())

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .ietfDraftInOneAppend),
            on: NetworkLayer(baseURL: server.baseURL))

        XCTAssertEqual(result?.value?.path, "/draft-uploads/upload-000001", String(describing: result))
        XCTAssertEqual(server.recordedRequests.map(\.method), ["POST"])
        XCTAssertEqual(server.recordedRequests.first?.header("Upload-Complete"), "?1")
        XCTAssertEqual(uploads.storedFiles.count, 1)
    }

    func testAServerWithoutTheDraftFailsWithAnErrorThatSaysWhy() throws {
        let server = try MockServer.echoing(in: self)
        let file = try source(seed: 64)

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .ietfDraftInOneAppend),
            on: NetworkLayer(baseURL: server.baseURL))

        guard case .resumableUploadUnsupported(let name, let status)? = result?.error else {
            return XCTFail("expected resumableUploadUnsupported, got \(String(describing: result))")
        }
        XCTAssertEqual(name, "the IETF resumable-upload draft (interop version 6)")
        XCTAssertEqual(status, 200)
        XCTAssertEqual(server.recordedRequests.map(\.method), ["POST"])
        XCTAssertEqual(server.recordedRequests.first?.bodyLength, 0, "nothing of the file was sent")
    }

    func testAServerWithoutTheDraftGetsAPlainUploadWhenTheCallerChoosesIt() throws {
        // A plain server that names what a POST created: without the draft's fields, not an upload to resume.
        let server = try MockServer.started(maxRequestBodySize: Self.size + Self.mebibyte, in: self) { _ in
            MockResponse(status: 201, headers: ["Location": "/files/1"])
        }
        let file = try source(seed: 65)

        let result = send(
            .upload(urlString: "files", fileURL: file, resumable: .ietfDraft(fallback: .plainUpload)),
            on: NetworkLayer(baseURL: server.baseURL))

        XCTAssertEqual(result?.value, server.url("files"), String(describing: result))
        XCTAssertEqual(server.recordedRequests.map(\.method), ["POST", "POST"])
        let plain = try XCTUnwrap(server.recordedRequests.last)
        XCTAssertNil(plain.header("Upload-Draft-Interop-Version"))
        XCTAssertNil(plain.header("Upload-Complete"))
        XCTAssertEqual(plain.header("Content-Type"), "video/mp4")
        XCTAssertEqual(plain.bodyLength, Self.size)
        XCTAssertEqual(SHA256.hex(SHA256.hash(plain.body)), try BigFile.sha256(of: file))
    }

    func testACancelMidUploadEndsItExactlyOnceAndDeletesTheUpload() throws {
        let (server, uploads) = try draftServer()
        let file = try source(seed: 66)
        let deleted = expectation(description: "the upload is deleted")
        let serving = uploads.handler
        server.handler = { request in
            let reply = try serving(request)
            if request.method == "DELETE" { deleted.fulfill() }
            return reply
        }
        var request = NetworkRequest.upload(
            urlString: "files", fileURL: file, resumable: .ietfDraftInOneAppend)
        request.retryPolicy = Self.resuming
        let task = Locked<(any NetworkTask)?>(nil)
        request.progressHandler = { progress in
            if progress.completedBytes > 0 { task.withLock { $0 }?.cancel() }
        }
        let ends = Locked(0)

        let result = outcome(of: URL.self, timeout: 60) { recorder in
            let started = network(server).send(
                request,
                successHandler: { response in
                    ends.withLock { $0 += 1 }
                    recorder.success(response.value)
                },
                errorHandler: { error in
                    ends.withLock { $0 += 1 }
                    recorder.failure(error)
                })
            task.withLock { $0 = started }
            return started
        }
        wait(for: [deleted], timeout: 10)

        guard case .cancelled? = result?.error else {
            return XCTFail("expected cancelled, got \(String(describing: result))")
        }
        XCTAssertEqual(ends.withLock { $0 }, 1)
        let delete = try XCTUnwrap(server.recordedRequests.first { $0.method == "DELETE" })
        XCTAssertEqual(delete.path, "/draft-uploads/upload-000001")
        XCTAssertEqual(delete.header("Upload-Draft-Interop-Version"), "6")
        XCTAssertEqual(uploads.storedFiles, [], "the server no longer keeps it")
        XCTAssertLessThan(uploads.appends.count, 2, "no append after the cancel")
    }

    private func network(_ server: MockServer) -> NetworkLayer {
        NetworkLayer(baseURL: server.baseURL)
    }
}
