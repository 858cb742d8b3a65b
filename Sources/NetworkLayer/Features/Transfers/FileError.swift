import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLError {
    /// A transfer's error on this device's files rather than the network: URLSession's own file `code`,
    /// and a description naming `file` and the reason.
    init(_ code: Code, file: URL, _ description: String) {
        self.init(code, userInfo: [NSLocalizedDescriptionKey: description, NSFilePathErrorKey: file.path])
    }

    /// Checked before sending and again before the complete file is moved into place.
    static func destinationExists(_ url: URL) -> URLError {
        URLError(
            .cannotCreateFile, file: url,
            "A file already exists at \(url.path); download with the .replaceExisting option to replace it.")
    }
}
