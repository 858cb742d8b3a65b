import Foundation

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
            if isFolder.boolValue { throw FileError.destinationIsFolder(destination) }
            if !target.options.contains(.replaceExisting) { throw FileError.destinationExists(destination) }
        }
        let folder = destination.deletingLastPathComponent()
        if target.options.contains(.createIntermediateFolders), !files.fileExists(atPath: folder.path) {
            do {
                try files.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw FileError.folderNotWritable(
                    destination,
                    reason: "the folder \(folder.path) could not be created (\(error.localizedDescription))")
            }
        }
        guard files.fileExists(atPath: folder.path, isDirectory: &isFolder) else {
            throw FileError.folderNotWritable(destination, reason: "the folder \(folder.path) does not exist")
        }
        guard isFolder.boolValue else {
            throw FileError.folderNotWritable(destination, reason: "\(folder.path) is not a folder")
        }
        guard files.isWritableFile(atPath: folder.path) else {
            throw FileError.folderNotWritable(destination, reason: "the folder \(folder.path) is read-only")
        }
    }
}

extension UploadSource {
    /// Every byte the real layer would send, read into memory: for test doubles, which record uploads.
    package func encodedBytes() throws(NetworkError) -> Data {
        let stream = try UploadBody.prepare(self).makeStream()
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        stream.open()
        defer { stream.close() }
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            if count < 0, let error = stream.streamError as? URLError { throw .transport(error) }
            guard count > 0 else { return data }
            data.append(buffer, count: count)
        }
    }

    package func length() throws(NetworkError) -> Int64 {
        try UploadBody.prepare(self).length
    }
}
