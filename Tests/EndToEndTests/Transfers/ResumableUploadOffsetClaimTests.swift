import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// A reply to an append claiming the server has more than was sent (beyond the file, or beyond the append)
/// fails the upload with `invalidResponse`, as a `HEAD` claiming more than the file does: a broken or
/// hostile server's word isn't taken for a finished upload.
final class ResumableUploadOffsetClaimTests: XCTestCase {
    private static let size = 100_000

    func testATusAppendReplyClaimingMoreThanTheFileFailsTheUpload() throws {
        let outcome = try upload(.tus, claiming: String(Self.size + 1_000))

        guard case .invalidResponse? = outcome?.error else {
            return XCTFail("expected invalidResponse, got \(String(describing: outcome))")
        }
    }

    func testADraftAppendReplyClaimingMoreThanTheFileFailsTheUpload() throws {
        let outcome = try upload(.ietfDraft, claiming: String(Self.size + 1_000))

        guard case .invalidResponse? = outcome?.error else {
            return XCTFail("expected invalidResponse, got \(String(describing: outcome))")
        }
    }

    func testAnAppendReplyClaimingMoreThanTheAppendFailsTheUpload() throws {
        var resumable = ResumableUpload.tus
        resumable.chunkSize = 64 << 10
        // Within the file, beyond the 64 KiB sent.
        let outcome = try upload(resumable, claiming: String(80_000))

        guard case .invalidResponse? = outcome?.error else {
            return XCTFail("expected invalidResponse, got \(String(describing: outcome))")
        }
    }

    /// Uploads a file of ``size`` bytes to a server whose replies to appends say `Upload-Offset: claim`.
    private func upload(_ resumable: ResumableUpload, claiming claim: String) throws
        -> Result<URL, NetworkError>?
    {
        let server = try MockServer.started(in: self)
        let handler: MockServer.Handler
        switch resumable.uploadProtocol {
        case .tus:
            let tus = server.serveTus()
            addTeardownBlock { tus.removeStoredFiles() }
            handler = tus.handler
        default:
            let draft = server.serveResumableUploads()
            addTeardownBlock { draft.removeStoredFiles() }
            handler = draft.handler
        }
        // Appends reach the handler whole, and their replies are rewritten.
        server.bodyHandler = nil
        server.handler = { request in
            var reply = try handler(request)
            guard request.method == "PATCH", (200..<300).contains(reply.status) else { return reply }
            reply.headers = reply.headers.filter { $0.name != "Upload-Offset" } + [("Upload-Offset", claim)]
            return reply
        }
        let file = try writeFile(TestData.bytes(Self.size), named: "notes.bin", in: makeFolder())
        let network = NetworkLayer(baseURL: server.baseURL)
        var request = NetworkRequest.upload(urlString: "files", fileURL: file, resumable: resumable)
        request.retryPolicy = RetryPolicy.none
        return try transferOutcome(timeout: 30) { success, failure in
            network.send(request, successHandler: success, errorHandler: failure)
        }
    }
}
