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
    case multipart(MultipartFormData)

    package var contentType: String {
        switch self {
        case .data(_, let contentType), .file(_, let contentType): contentType
        case .multipart(let form): form.contentType
        }
    }
}
