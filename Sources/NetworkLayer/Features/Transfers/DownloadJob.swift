import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One download request, shared by its attempts: its target (its partial file beside it), and whether the caller's
/// `.restart` is still to be applied (only the first attempt discards; a retry resumes). Its route: the
/// reply written to the partial file; an error reply in memory, up to `errorBodyLimit`.
struct DownloadJob: SinkRoute {
    let target: DownloadTarget
    /// The media types a reply must have to be written to disk; `nil` accepts any.
    let acceptableContentTypes: [String]?
    /// Whether the request is over while an attempt may still hold the destination: a new download to it
    /// then waits instead of being refused.
    let isAbandoned: @Sendable () -> Bool
    let errorBodyLimit: Int
    let progress: ProgressReporter?
    /// Claimed by the first attempt: only it discards the file, when the options say `.restart`.
    let restart = Once()

    func makeSink(for request: URLRequest, on transport: SessionTransport) -> any TransferSink {
        FileSink(job: self, request: request, disk: transport.disk)
    }

    /// Whether `response` may be written to disk: an acceptable type, none asked for, or no body.
    func accepts(_ response: HTTPURLResponse) -> Bool {
        guard let acceptable = acceptableContentTypes, !response.hasNoBody else { return true }
        guard let type = response.value(forHTTPHeaderField: "Content-Type") else { return false }
        return MediaType.matches(type, anyOf: acceptable)
    }
}

/// How a download's reply is written: where the body starts in the partial file and what identifies it.
struct DownloadPlan {
    var offset: Int64
    var info: PartialDownload.Info?
    var expected: Int64?
    /// A 204 or 205: the file is empty, whatever bytes come with the reply (a 205 may carry some).
    var isEmpty = false

    /// What a reply means for a request that asked for the bytes from `offset` on, given what is on disk.
    enum Decision {
        case write(DownloadPlan)
        /// The bytes on disk can't be continued: discard them and ask for the whole file.
        case restart
        /// Not a body to keep: an error reply, kept in memory for the error.
        case errorReply
        /// A reply that can't be right: part of a file nobody asked part of.
        case invalid
    }

    static func decide(
        _ response: HTTPURLResponse, requestedFrom offset: Int64, resuming info: PartialDownload.Info?,
        resumable: Bool
    ) -> Decision {
        let status = response.statusCode
        if offset > 0, let info {
            if status == 416 { return .restart }
            if status == 206 {
                guard let range = contentRange(of: response), range.start == offset,
                    sameVersion(response, info)
                else { return .restart }
                return .write(
                    DownloadPlan(offset: offset, info: info, expected: range.total ?? info.totalBytes))
            }
        }
        guard (200..<300).contains(status) else { return .errorReply }
        // The server's representation is empty: so is the file, replacing the bytes on disk.
        if status == 204 || status == 205 {
            return .write(DownloadPlan(offset: 0, info: nil, expected: 0, isEmpty: true))
        }
        // A 206 without a range asked for (the layer's or the caller's own) would end as a short file.
        if status == 206 && resumable { return .invalid }
        // The body's length as delivered is known, and ranges count the file's own bytes, only when it is
        // not content-encoded; not for a chunked reply either.
        let encoding = response.value(forHTTPHeaderField: "Content-Encoding")?.lowercased()
        let isIdentity = encoding == nil || encoding == "identity"
        let length = response.expectedContentLength
        let expected = isIdentity && length >= 0 ? length : nil
        let info = resumable && isIdentity ? PartialDownload.info(for: response, totalBytes: expected) : nil
        return .write(DownloadPlan(offset: 0, info: info, expected: expected))
    }

    /// A `Content-Range: bytes first-last/total` header's first byte and total (`nil` for `*`).
    private static func contentRange(of response: HTTPURLResponse) -> (start: Int64, total: Int64?)? {
        guard let value = response.value(forHTTPHeaderField: "Content-Range") else { return nil }
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = trimmed.dropFirst("bytes ".count).split(separator: "/", maxSplits: 1)
        let bounds = spec.first?.split(separator: "-", maxSplits: 1) ?? []
        guard spec.count == 2, bounds.count == 2, let start = Int64(bounds[0]), let end = Int64(bounds[1]),
            start <= end
        else { return nil }
        return (start, spec[1] == "*" ? nil : Int64(spec[1]))
    }

    /// Whether a 206 continues the bytes on disk: its `ETag`, or else its `Last-Modified`, matches.
    private static func sameVersion(_ response: HTTPURLResponse, _ info: PartialDownload.Info) -> Bool {
        if let tag = info.entityTag {
            return response.value(forHTTPHeaderField: "ETag").map { $0 == tag } ?? true
        }
        return response.value(forHTTPHeaderField: "Last-Modified").map { $0 == info.lastModified } ?? true
    }
}
