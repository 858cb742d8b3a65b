import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How one request's body and reply travel.
enum TransportRoute: Sendable {
    case data(limit: Int)
    /// A download: the reply written to the job's partial file; an error reply in memory, up to `limit`.
    case download(DownloadJob, limit: Int, progress: ProgressReporter?)
    /// An upload: the body streamed from memory or disk; the reply in memory, up to `limit` bytes.
    case upload(UploadBody, limit: Int, progress: ProgressReporter?)
    /// A stream: a 2xx reply parsed and delivered as it arrives, without size limit.
    case stream(any StreamRoute)

    /// For metrics; `nil` when the body is the request's `httpBody`.
    var bodyLength: Int64? {
        if case .upload(let body, _, _) = self { return body.length }
        return nil
    }
}

extension TransportRoute {
    /// `disk` is read for downloads only.
    func makeSink(for request: URLRequest, disk: @autoclosure () -> any DownloadDisk) -> any TransferSink {
        switch self {
        case .data(let limit), .upload(_, let limit, _):
            return MemorySink(limit: limit, method: request.httpMethod)
        case .download(let job, let limit, let progress):
            return FileSink(
                job: job, request: request, errorBodyLimit: limit, progress: progress, disk: disk())
        case .stream(let route):
            return route.makeSink(for: request)
        }
    }

    var memoryLimit: Int? {
        switch self {
        case .data(let limit), .upload(_, let limit, _): limit
        case .download, .stream: nil
        }
    }

    var body: UploadBody? {
        if case .upload(let body, _, _) = self { return body }
        return nil
    }

    /// An upload's progress (a download's sink tells its own).
    var progress: ProgressReporter? {
        if case .upload(_, _, let progress) = self { return progress }
        return nil
    }
}

extension TransportRoute {
    /// An upload's body is checked and measured here, before anything is sent. A download writes a file
    /// only of a reply of `acceptableContentTypes`; `isAbandoned`: see ``DownloadJob/isAbandoned``.
    init(
        _ transfer: TransferDescription?, limit: Int, acceptableContentTypes: [String]? = nil,
        progress: ProgressReporter?, isAbandoned: @escaping @Sendable () -> Bool = { false }
    ) throws(NetworkError) {
        switch transfer {
        case nil:
            self = .data(limit: limit)
        case .download(let target)?:
            self = .download(
                DownloadJob(
                    target: target, acceptableContentTypes: acceptableContentTypes, isAbandoned: isAbandoned),
                limit: limit, progress: progress)
        case .upload(let source)?:
            self = .upload(try UploadBody.prepare(source), limit: limit, progress: progress)
        }
    }
}
