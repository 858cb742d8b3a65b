import Foundation

/// How an upload from a file survives a dropped connection: by a protocol that lets the layer ask the
/// server how much it has, and send only the rest.
///
/// ```swift
/// var request = NetworkRequest.upload(urlString: "files", fileURL: video, resumable: .tus)
/// request.retryPolicy = RetryPolicy(maximumAttempts: 5)
/// let upload = try await network.send(request).value
/// ```
///
/// The file goes in appends of ``chunkSize`` bytes (1 MiB by default). The request's ``RetryPolicy``
/// decides how often an interrupted upload is resumed; an attempt that moved the server's offset forward
/// starts the count afresh. See <doc:DownloadsAndUploads>.
public struct ResumableUpload: Sendable, Hashable {
    /// The protocols the layer speaks to resume an upload.
    public enum UploadProtocol: Sendable, Hashable {
        /// tus 1.0: creation with `POST` and `Upload-Length`, `HEAD` for the offset, `PATCH` with
        /// `application/offset+octet-stream` to append.
        case tus
        /// The IETF draft (draft-ietf-httpbis-resumable-upload-05, `Upload-Draft-Interop-Version: 6`, the
        /// version URLSession sends since iOS 18 and macOS 15): creation with `POST` and
        /// `Upload-Complete: ?0`, `HEAD` for the offset, `PATCH` with `application/partial-upload` to append
        /// (`Upload-Complete: ?0` on every append but the last, `?1` on the last), `DELETE` when the upload
        /// is cancelled.
        case ietfDraft
    }

    /// What the layer does when the server doesn't speak the protocol.
    public enum Fallback: Sendable, Hashable {
        /// The upload fails with ``NetworkError/resumableUploadUnsupported(protocolName:status:)``; nothing
        /// is sent but the creation request, without the file.
        case fail
        /// The file goes out whole as a plain upload, with the request's method and headers.
        case plainUpload
    }

    /// The protocol the upload is sent with.
    public var uploadProtocol: UploadProtocol

    /// What the layer does when the server doesn't speak the protocol.
    public var fallback: Fallback

    /// The most bytes of the file one append (`PATCH`) carries; ``defaultChunkSize`` (1 MiB) unless set.
    ///
    /// The file goes in appends of this size, the last one shorter; with the IETF draft every append but
    /// the last is marked incomplete (`Upload-Complete: ?0`). Each append the server acknowledges moves the
    /// upload's progress and its ``TransferStore`` record forward, and a drop sends again at most the
    /// append it cut: all of it against a server that keeps nothing of a cut `PATCH`. A server (or a proxy
    /// in front of it) that refuses an append as too large (`413`) gets the rest in appends half as large,
    /// down to ``minimumChunkSize`` (or this size, when smaller); a `413` to an append that small fails
    /// the upload with ``NetworkError/unacceptableStatusCode(_:body:headers:)``. Set `Int64.max` to send
    /// the rest of the file in one append. A value below 1 counts as 1.
    public var chunkSize: Int64 = ResumableUpload.defaultChunkSize

    /// 1 MiB (1,048,576 bytes), the default ``chunkSize``: the largest body nginx accepts with its default
    /// `client_max_body_size 1m` (a larger one is answered `413`), so an upload server behind an nginx
    /// left as installed takes it, and a tenth of `tussi`'s 10 MB request limit. Larger appends cost fewer
    /// round trips (one per MiB here); smaller ones cost less to send again after a drop against a server
    /// that keeps nothing of a cut `PATCH`.
    public static let defaultChunkSize: Int64 = 1 << 20

    /// 64 KiB: the smallest append a `413` makes the layer try before the upload fails (see
    /// ``chunkSize``).
    public static let minimumChunkSize: Int64 = 64 << 10

    /// tus 1.0 (creation, `HEAD` for the offset, `PATCH` to append); failing against a server without it.
    public static let tus = ResumableUpload(uploadProtocol: .tus, fallback: .fail)

    /// tus 1.0, with the given fallback.
    ///
    /// - Parameter fallback: What the layer does when the server doesn't speak tus.
    /// - Returns: The option.
    public static func tus(fallback: Fallback) -> ResumableUpload {
        ResumableUpload(uploadProtocol: .tus, fallback: fallback)
    }

    /// The IETF resumable-upload draft at interop version 6 (see ``UploadProtocol/ietfDraft``); failing
    /// against a server without it.
    public static let ietfDraft = ResumableUpload(uploadProtocol: .ietfDraft, fallback: .fail)

    /// The IETF resumable-upload draft at interop version 6, with the given fallback.
    ///
    /// - Parameter fallback: What the layer does when the server doesn't speak the draft.
    /// - Returns: The option.
    public static func ietfDraft(fallback: Fallback) -> ResumableUpload {
        ResumableUpload(uploadProtocol: .ietfDraft, fallback: fallback)
    }
}

extension NetworkRequest where Value == URL {
    /// A request that sends a file resumably: created on the server with an empty `POST` to `urlString`,
    /// then appended to with `PATCH`; after a dropped connection, a timeout or a 5xx, the layer asks the server
    /// for its offset and sends only the rest. The success value is the upload's URL (the URL the file was
    /// sent to, when it went out as a plain upload).
    ///
    /// Progress starts from what the server already has. With a test double (``NetworkLayer`` answered in
    /// process) the request is sent as a plain upload of the file.
    ///
    /// - Parameters:
    ///   - urlString: The creation URL: absolute, or a path resolved against the layer's base URL.
    ///   - fileURL: The file to send.
    ///   - resumable: The protocol, and what to do when the server doesn't speak it.
    ///   - contentType: The plain upload's `Content-Type`; guessed from the file name when `nil`.
    ///   - headers: Headers for every request of the upload; they override the layer's default headers.
    /// - Returns: The request.
    public static func upload(
        urlString: String, fileURL: URL, resumable: ResumableUpload, contentType: String? = nil,
        headers: [String: String] = [:]
    ) -> NetworkRequest<URL> {
        var request = NetworkRequest<URL>(method: .post, urlString: urlString, headers: headers)
        request.decoding = { _ in
            ResponseDecoding(runsCallerCode: false) { reply throws(NetworkError) in
                guard let url = reply.response.url else { throw .invalidResponse }
                return url
            }
        }
        request.transfer = .upload(.file(fileURL, contentType: contentType ?? MediaTypes.guess(for: fileURL)))
        request.resumable = resumable
        return request
    }
}
