import Foundation

/// What makes a ``NetworkRequest`` a transfer: where a download is written, or what an upload sends.
/// Test doubles read it to answer downloads and record uploads.
package enum TransferDescription: Sendable {
    /// The reply's body goes to a file.
    case download(DownloadTarget)
    /// The request's body comes from memory, a file or a form.
    case upload(UploadSource)
}

/// Where a download goes, and how.
package struct DownloadTarget: Sendable {
    /// The file the complete download is moved to.
    package let destination: URL
    /// Whether an existing file is replaced, and whether a partial download is resumed.
    package let options: DownloadOptions

    package init(destination: URL, options: DownloadOptions) {
        self.destination = destination.standardizedFileURL
        self.options = options
    }
}

/// What an upload sends.
package enum UploadSource: Sendable {
    /// Bytes in memory, labelled with a content type.
    case data(Data, contentType: String)
    /// A file, read while it is sent, labelled with a content type.
    case file(URL, contentType: String)
    /// A form, its files read while it is sent.
    case multipart(MultipartFormData)

    /// The request's `Content-Type`.
    package var contentType: String {
        switch self {
        case .data(_, let contentType), .file(_, let contentType): contentType
        case .multipart(let form): form.contentType
        }
    }
}
