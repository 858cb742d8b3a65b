import Foundation

/// An upload's body in a form URLSession sends by itself, as an upload task's file or a data task's
/// `httpBody`: what the
/// layer sends on Apple platforms, whose URLSession drives body streams through CFReadStream, where an
/// `InputStream` subclass is not a supported source (see ``PlatformSession/sendsUploadsNatively``).
enum NativeUploadBody: Sendable {
    /// A file on disk; a temporary one holds a body made of several pieces and is removed at the end.
    case file(URL, isTemporary: Bool)
    /// A body with no file in it.
    case data(Data)

    /// How the body goes out natively: its own file when it is one whole file, its bytes when it has no
    /// file, else a temporary file holding the whole body. Writing that file touches the disk, so this
    /// never runs on the caller's queue or the delegate queue.
    static func prepare(_ body: UploadBody) -> Result<NativeUploadBody, URLError> {
        if body.segments.count == 1, case .file(let url, _) = body.segments[0] {
            return .success(.file(url, isTemporary: false))
        }
        var bytes = Data()
        for segment in body.segments {
            guard case .bytes(let data) = segment else {
                return writeTemporaryFile(body).map { .file($0, isTemporary: true) }
            }
            bytes.append(data)
        }
        return .success(.data(bytes))
    }

    /// Removes a temporary file, off the delegate queue; the body's own file stays.
    func discard() {
        guard case .file(let url, isTemporary: true) = self else { return }
        Queues.disk.async { try? FileManager.default.removeItem(at: url) }
    }

    /// The whole body, read through the stream that sends it on Linux: the same exact length and the
    /// same errors for a file that changed since it was measured.
    private static func writeTemporaryFile(_ body: UploadBody) -> Result<URL, URLError> {
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
        let stream = body.makeStream()
        stream.open()
        defer {
            stream.close()
            file.close()
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var written: Int64 = 0
        while written < body.length {
            let read = buffer.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress.map { stream.read($0, maxLength: buffer.count) } ?? -1
            }
            guard read > 0, case .success = file.write(Data(buffer[0..<read])) else {
                try? FileManager.default.removeItem(at: url)
                return .failure(stream.streamError as? URLError ?? failed)
            }
            written += Int64(read)
        }
        return .success(url)
    }
}
