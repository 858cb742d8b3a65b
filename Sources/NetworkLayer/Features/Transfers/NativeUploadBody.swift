import Foundation

/// An upload's body as URLSession sends it by itself (an upload task's file, or `httpBody`): used on Apple
/// platforms, where an `InputStream` subclass isn't a supported body stream
/// (``PlatformFacts/sendsUploadsNatively``).
enum NativeUploadBody: Sendable {
    /// A temporary one holds a body of several pieces and is removed at the end.
    case file(URL, isTemporary: Bool)
    case data(Data)

    /// Removes a temporary file, off the delegate queue; the body's own file stays.
    func discard() {
        guard case .file(let url, isTemporary: true) = self else { return }
        Queues.disk.async { try? FileManager.default.removeItem(at: url) }
    }

    /// The whole body, read through the Linux stream: same exact length, same errors for a changed file.
    static func writeTemporaryFile(_ body: UploadBody) -> Result<URL, URLError> {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("NetworkLayer-upload-\(UUID().uuidString)")
        let failed = URLError(
            .cannotWriteToFile,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "The upload's body could not be written to \(url.path) to be sent.",
                NSURLErrorFailingURLErrorKey: url,
            ])
        guard case .success(let file) = POSIXFile.openForWriting(url, keeping: 0) else {
            return .failure(failed)
        }
        defer { file.close() }
        let read = body.read { piece in (try? file.write(piece).get()) != nil }
        guard read.isComplete else {
            try? FileManager.default.removeItem(at: url)
            return .failure(read.error ?? failed)
        }
        return .success(url)
    }
}
