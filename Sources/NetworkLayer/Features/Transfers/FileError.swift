import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The errors of transfers that fail on this device's files rather than on the network: they reach the
/// error handler as ``NetworkError/transport(_:)`` with the `URLError` file codes URLSession itself uses,
/// and a description naming the file and the reason.
enum FileError {
    /// A file is already where a download would put its result.
    static func destinationExists(_ url: URL) -> NetworkError {
        error(
            .cannotCreateFile, url,
            "A file already exists at \(url.path); download with the .replaceExisting option to replace it.")
    }

    /// The destination is a folder.
    static func destinationIsFolder(_ url: URL) -> NetworkError {
        error(.cannotCreateFile, url, "The download destination \(url.path) is a folder.")
    }

    /// The folder a download would be written to is missing or can't be written to.
    static func folderNotWritable(_ url: URL, reason: String) -> NetworkError {
        error(
            .cannotOpenFile, url,
            "The download can't be written beside \(url.path): \(reason).")
    }

    /// Another download to the same destination is running in this process.
    static func destinationBusy(_ url: URL) -> NetworkError {
        error(
            .cannotOpenFile, url,
            "Another download to \(url.path) is in progress; wait for its handler, or cancel it, "
                + "then start again.")
    }

    /// Writing a download failed (for example the disk is full).
    static func writeFailed(_ url: URL, reason: String) -> URLError {
        urlError(.cannotWriteToFile, url, "Writing the download to \(url.path) failed: \(reason).")
    }

    /// Moving a complete download into place failed.
    static func moveFailed(_ url: URL, reason: String) -> URLError {
        urlError(.cannotMoveFile, url, "The complete download could not be moved to \(url.path): \(reason).")
    }

    /// A file to upload is missing.
    static func uploadMissing(_ url: URL) -> NetworkError {
        error(.fileDoesNotExist, url, "The file to upload, \(url.path), does not exist.")
    }

    /// A file to upload is a folder.
    static func uploadIsFolder(_ url: URL) -> NetworkError {
        error(.fileIsDirectory, url, "The file to upload, \(url.path), is a folder.")
    }

    /// A file to upload can't be read.
    static func uploadUnreadable(_ url: URL, reason: String) -> NetworkError {
        error(.noPermissionsToReadFile, url, "The file to upload, \(url.path), can't be read: \(reason).")
    }

    /// A file changed while it was being uploaded.
    static func uploadChanged(_ url: URL, reason: String) -> URLError {
        urlError(.noPermissionsToReadFile, url, "The file to upload, \(url.path), \(reason).")
    }

    private static func error(_ code: URLError.Code, _ url: URL, _ text: String) -> NetworkError {
        .transport(urlError(code, url, text))
    }

    private static func urlError(_ code: URLError.Code, _ url: URL, _ text: String) -> URLError {
        URLError(code, userInfo: [NSLocalizedDescriptionKey: text, NSFilePathErrorKey: url.path])
    }
}
