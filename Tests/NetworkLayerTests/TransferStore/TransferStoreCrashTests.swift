import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// A transfer store across processes killed with `SIGKILL`: a 256 MiB tus upload killed at about 30%, a
/// 256 MiB download killed at about 30%, then a new process with the same store lists both and resumes
/// each from what was done, byte-exact.
final class TransferStoreCrashTests: XCTestCase {
    private static let mebibyte = 1 << 20
    private static let size = 256 * mebibyte
    /// What the download may send again: the bytes the client had received but not yet written.
    private static let downloadResendBound = mebibyte
    /// What the upload may send again: the server keeps what arrived of the append the kill cut.
    private static let uploadResendBound = mebibyte

    #if os(macOS) || os(Linux)
        func testAnUploadAndADownloadKilledAtAThirdResumeInANewProcessByteExact() throws {
            let folder = try makeOutboxFolder()
            let store = folder.appendingPathComponent("store")
            let source = try BigFile.make(
                at: folder.appendingPathComponent("video.bin"), size: Self.size, seed: 1)
            let served = try BigFile.make(
                at: folder.appendingPathComponent("served.bin"), size: Self.size, seed: 2)
            let destination = folder.appendingPathComponent("download.bin")
            let tus = TusHandler()
            addTeardownBlock { tus.removeStoredFiles() }
            let file = try RangeFileHandler(file: served)
            let server = MockServer(maxRequestBodySize: Self.size + Self.mebibyte) { request in
                request.path == "/big" ? file.answer(request) : try tus.handler(request)
            }
            // Appends stream to disk and a cut one keeps the bytes that came, as tus servers do.
            server.bodyHandler = tus.bodyHandler
            try server.start()
            addTeardownBlock { server.stop() }
            let base = server.baseURL.absoluteString

            let uploading = try HarnessProcess(["transfer-upload", store.path, base, source.path])
            defer { uploading.kill() }
            XCTAssertTrue(uploading.wait(for: "upload 30%", timeout: 120), "\(uploading.output.suffix(3))")
            uploading.kill()
            let uploadSent = lastProgress(.upload, in: uploading.output)

            let downloading = try HarnessProcess([
                "transfer-download", store.path, base, "big", destination.path,
            ])
            defer { downloading.kill() }
            XCTAssertTrue(
                downloading.wait(for: "download 30%", timeout: 120), "\(downloading.output.suffix(3))")
            downloading.kill()
            let downloadReceived = lastProgress(.download, in: downloading.output)
            let appendsBeforeResume = tus.appends.count

            let resuming = try HarnessProcess(["transfer-resume", store.path, base])
            defer { resuming.kill() }
            XCTAssertTrue(resuming.wait(for: "all done", timeout: 180), "\(resuming.output.suffix(5))")
            XCTAssertTrue(resuming.output.contains("upload done"), "\(resuming.output.suffix(5))")
            XCTAssertTrue(resuming.output.contains("download done"), "\(resuming.output.suffix(5))")
            XCTAssertEqual(resuming.output.filter { $0.hasPrefix("listed ") }.count, 2)

            // The upload: resumed from the server's offset (HEAD), not created again.
            let resumedAppends = tus.appends.dropFirst(appendsBeforeResume)
            let resumedAt = Int(resumedAppends.first?.offset ?? -1)
            XCTAssertGreaterThanOrEqual(resumedAt, 0, "the resumed process appended")
            XCTAssertEqual(tus.storedFiles.count, 1, "not created again")
            // Sent again: what the client had sent beyond the offset it resumed from, or what reached the
            // server twice (the appends' bytes beyond the file's), whichever is more.
            let uploadResent = max(
                uploadSent - resumedAt, tus.appends.reduce(0) { $0 + $1.length } - Self.size)
            XCTAssertLessThanOrEqual(uploadResent, Self.uploadResendBound)
            XCTAssertEqual(try BigFile.sha256(of: tus.storedFiles[0]), try BigFile.sha256(of: source))

            // The download: one Range request from the bytes on disk.
            XCTAssertEqual(file.requestedStarts.count, 2, "\(file.requestedStarts)")
            let rangeStart = file.requestedStarts.last ?? 0
            XCTAssertGreaterThan(rangeStart, Self.size / 5, "resumed from the partial file")
            // What the client had received and asks for again (bytes not yet written to the partial file).
            let downloadResent = max(0, downloadReceived - rangeStart)
            XCTAssertLessThanOrEqual(downloadResent, Self.downloadResendBound)
            let servedTwice = (file.servedBytes.first ?? 0) - rangeStart
            XCTAssertEqual(try BigFile.sha256(of: destination), try BigFile.sha256(of: served))
            XCTAssertGreaterThanOrEqual(
                firstProgress(.download, in: resuming.output) ?? 0, rangeStart,
                "progress starts from what is done")

            let leftovers = try FileManager.default.contentsOfDirectory(atPath: store.path)
            XCTAssertEqual(leftovers, ["lock"], "finished transfers leave no record")
            print(
                "TransferStoreCrashTests: upload sent \(uploadSent) before the kill, resumed at \(resumedAt) "
                    + "(resent \(uploadResent)); download received \(downloadReceived), Range from \(rangeStart) "
                    + "(resent \(downloadResent); the server's first reply had handed \(servedTwice) more to "
                    + "its socket)")
        }

        private func progressLines(_ kind: StoredTransfer.Kind, in output: [String]) -> [Int] {
            let prefix = "\(kind.rawValue) at "
            return output.filter { $0.hasPrefix(prefix) }.compactMap { Int($0.dropFirst(prefix.count)) }
        }

        private func lastProgress(_ kind: StoredTransfer.Kind, in output: [String]) -> Int {
            progressLines(kind, in: output).last ?? 0
        }

        private func firstProgress(_ kind: StoredTransfer.Kind, in output: [String]) -> Int? {
            progressLines(kind, in: output).first
        }
    #endif
}
