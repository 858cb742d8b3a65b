import Foundation
import NetworkLayer

/// What an upload request would have sent, as a test double recorded it: the bytes, the file or the
/// form, not loaded until asked.
///
/// ```swift
/// network.send(
///     NetworkRequest<EmptyResponse>.upload(urlString: "avatars", fileURL: photo),
///     successHandler: { _ in }, errorHandler: { _ in })
/// XCTAssertEqual(network.recordedRequests.last?.upload, .file(photo))
/// ```
public enum RecordedUpload: Sendable, Equatable {
    /// Bytes from memory.
    case data(Data)
    /// A file, streamed from disk by the real layer.
    case file(URL)
    /// A `multipart/form-data` form; its `MultipartFormData/parts` say what it holds.
    case multipart(MultipartFormData)

    /// The form's parts, for a multipart upload; `nil` otherwise.
    public var parts: [MultipartFormData.Part]? {
        if case .multipart(let form) = self { return form.parts }
        return nil
    }

    /// Every byte the real layer would send (the file's contents, the encoded form), read now; throws
    /// the real layer's error for a missing file.
    public func bytes() throws -> Data {
        do throws(NetworkError) {
            return try source.encodedBytes()
        } catch {
            throw error
        }
    }

    var source: UploadSource {
        switch self {
        case .data(let data): .data(data, contentType: "")
        case .file(let url): .file(url, contentType: "")
        case .multipart(let form): .multipart(form)
        }
    }

    init(_ source: UploadSource) {
        switch source {
        case .data(let data, _): self = .data(data)
        case .file(let url, _): self = .file(url)
        // Only a resumable upload's own appends send a part of a file; test doubles send it whole.
        case .fileRange(let url, _, _, _): self = .file(url)
        case .multipart(let form): self = .multipart(form)
        }
    }
}
