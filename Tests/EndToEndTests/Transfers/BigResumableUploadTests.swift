import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// A 256 MiB resumable upload, over tus and over the IETF draft, cut by MockServer in the middle of an append's body: the server keeps the bytes that
/// came, the layer asks for the offset and sends only the rest, and the stored file is the source's. Neither
/// side holds the file in memory: the source is written in chunks, the server streams appends to disk.
final class BigResumableUploadTests: XCTestCase {
    private static let mebibyte = 1_048_576
    private static let size = 256 * mebibyte

    func testA256MiBTusUploadCutAtHalfResendsAtMostOneMebibyteAndArrivesByteExact() throws {
        let server = try MockServer.started(in: self)
        let tus = server.serveTus()
        addTeardownBlock { tus.removeStoredFiles() }
        tus.cutNextAppend(afterBytes: Self.size / 2)
        try uploadResumes(
            .tusInOneAppend, on: server, appends: { tus.appends }, stored: { tus.storedFiles.first })
    }

    func testA256MiBDraftUploadCutAtHalfResendsAtMostOneMebibyteAndArrivesByteExact() throws {
        let server = try MockServer.started(in: self)
        let uploads = server.serveResumableUploads()
        addTeardownBlock { uploads.removeStoredFiles() }
        uploads.cutNextAppend(afterBytes: Self.size / 2)
        try uploadResumes(
            .ietfDraftInOneAppend, on: server, appends: { uploads.appends },
            stored: { uploads.storedFiles.first })
    }

    /// Uploads a 256 MiB file with `kind`, the server cutting its first append at half, and checks the
    /// resume: one `HEAD`, the rest sent from the server's offset, the stored file the source's.
    private func uploadResumes(
        _ kind: ResumableUpload, on server: MockServer, appends: () -> [UploadAppend], stored: () -> URL?
    ) throws {
        let source = try BigFile.make(at: makeFolder().appendingPathComponent("video.mp4"), size: Self.size)
        let half = Int64(Self.size / 2)
        var request = NetworkRequest.upload(urlString: "files", fileURL: source, resumable: kind)
        request.retryPolicy = RetryPolicy(maximumAttempts: 3, initialDelay: 0)
        let network = NetworkLayer(baseURL: server.baseURL)

        let result = outcome(of: URL.self, timeout: 120) { recorder in
            network.send(
                request, successHandler: { recorder.success($0.value) }, errorHandler: recorder.failure)
        }

        XCTAssertNotNil(result?.value, String(describing: result))
        // The drop reached the layer, which asked for the offset: libcurl did not send the append again.
        XCTAssertEqual(server.recordedRequests.map(\.method), ["POST", "PATCH", "HEAD", "PATCH"])
        XCTAssertEqual(appends().map(\.offset), [0, half], "resumed from the bytes the server kept")
        XCTAssertEqual(appends().first?.length, Int(half), "the cut kept exactly the bytes before it")
        let sent = appends().reduce(Int64(0)) { $0 + Int64($1.length) }
        XCTAssertLessThanOrEqual(sent - Int64(Self.size), Int64(Self.mebibyte), "resent bytes")
        let file = try XCTUnwrap(stored())
        XCTAssertEqual(try BigFile.size(of: file), Int64(Self.size))
        XCTAssertEqual(try BigFile.sha256(of: file), try BigFile.sha256(of: source))
    }
}
