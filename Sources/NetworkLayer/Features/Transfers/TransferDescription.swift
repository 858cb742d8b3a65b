import Foundation

/// What makes a ``NetworkRequest`` a transfer: where a download is written, or what an upload sends.
/// Test doubles read it to answer downloads and record uploads.
package enum TransferDescription: Sendable {
    case download(DownloadTarget)
    case upload(UploadSource)
}

package struct DownloadTarget: Sendable {
    package let destination: URL
    package let options: DownloadOptions

    package init(destination: URL, options: DownloadOptions) {
        self.destination = destination.standardizedFileURL
        self.options = options
    }
}

package enum UploadSource: Sendable {
    case data(Data, contentType: String)
    case file(URL, contentType: String)
    /// `length` bytes of a file from `offset`: what one append of a resumable upload sends.
    case fileRange(URL, from: Int64, length: Int64, contentType: String)
    case multipart(MultipartFormData)

    package var contentType: String {
        switch self {
        case .data(_, let contentType), .file(_, let contentType), .fileRange(_, _, _, let contentType):
            contentType
        case .multipart(let form): form.contentType
        }
    }
}

extension TransferDescription {
    package var isDownload: Bool {
        if case .download = self { return true }
        return false
    }

    /// Checks before anything is sent, in the layer and its test doubles alike: a download's destination
    /// (free or replaceable, in a writable folder), an upload's files; gives an upload's type and length.
    package func checked() throws(NetworkError) -> (contentType: String, length: Int64)? {
        switch self {
        case .download(let target):
            try Self.check(target)
            return nil
        case .upload(let source):
            return (source.contentType, try UploadBody.prepare(source).length)
        }
    }

    private static func check(_ target: DownloadTarget) throws(NetworkError) {
        let destination = target.destination
        let files = FileManager.default
        var isFolder: ObjCBool = false
        if files.fileExists(atPath: destination.path, isDirectory: &isFolder) {
            if isFolder.boolValue {
                throw .transport(
                    URLError(
                        .cannotCreateFile, file: destination,
                        "The download destination \(destination.path) is a folder."))
            }
            if !target.options.contains(.replaceExisting) {
                throw .transport(.destinationExists(destination))
            }
        }
        func notWritable(_ reason: String) -> NetworkError {
            .transport(
                URLError(
                    .cannotOpenFile, file: destination,
                    "The download can't be written beside \(destination.path): \(reason)."))
        }
        let folder = destination.deletingLastPathComponent()
        if target.options.contains(.createIntermediateFolders), !files.fileExists(atPath: folder.path) {
            do {
                try files.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw notWritable(
                    "the folder \(folder.path) could not be created (\(error.localizedDescription))")
            }
        }
        guard files.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
            throw notWritable("the folder \(folder.path) does not exist")
        }
        guard isFolder.boolValue else { throw notWritable("\(folder.path) is not a folder") }
        guard files.isWritableFile(atPath: folder.path) else {
            throw notWritable("the folder \(folder.path) is read-only")
        }
    }
}

extension UploadSource {
    /// Every byte the real layer would send, read into memory: for test doubles, which record uploads.
    package func encodedBytes() throws(NetworkError) -> Data {
        var data = Data()
        let read = try UploadBody.prepare(self).read { piece in
            data.append(piece)
            return true
        }
        if let error = read.error { throw .transport(error) }
        return data
    }

    package func length() throws(NetworkError) -> Int64 {
        try UploadBody.prepare(self).length
    }
}
