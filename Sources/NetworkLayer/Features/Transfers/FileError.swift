import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Transfer errors on this device's files rather than the network: ``NetworkError/transport(_:)`` with
/// URLSession's own `URLError` file codes and a description naming the file and the reason.
enum FileError {
    static func destinationExists(_ url: URL) -> NetworkError {
        error(
            .cannotCreateFile, url,
            "A file already exists at \(url.path); download with the .replaceExisting option to replace it.")
    }

    static func destinationIsFolder(_ url: URL) -> NetworkError {
        error(.cannotCreateFile, url, "The download destination \(url.path) is a folder.")
    }

    static func folderNotWritable(_ url: URL, reason: String) -> NetworkError {
        error(
            .cannotOpenFile, url,
            "The download can't be written beside \(url.path): \(reason).")
    }

    static func destinationBusy(_ url: URL) -> NetworkError {
        error(
            .cannotOpenFile, url,
            "Another download to \(url.path) is in progress; wait for its handler, or cancel it, "
                + "then start again.")
    }

    static func writeFailed(_ url: URL, reason: String) -> URLError {
        urlError(.cannotWriteToFile, url, "Writing the download to \(url.path) failed: \(reason).")
    }

    static func moveFailed(_ url: URL, reason: String) -> URLError {
        urlError(.cannotMoveFile, url, "The complete download could not be moved to \(url.path): \(reason).")
    }

    static func uploadMissing(_ url: URL) -> NetworkError {
        error(.fileDoesNotExist, url, "The file to upload, \(url.path), does not exist.")
    }

    static func uploadIsFolder(_ url: URL) -> NetworkError {
        error(.fileIsDirectory, url, "The file to upload, \(url.path), is a folder.")
    }

    static func uploadUnreadable(_ url: URL, reason: String) -> NetworkError {
        error(.noPermissionsToReadFile, url, "The file to upload, \(url.path), can't be read: \(reason).")
    }

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
