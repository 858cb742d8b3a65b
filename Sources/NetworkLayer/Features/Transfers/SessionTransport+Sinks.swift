import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension TransportRoute {
    /// An upload's body is checked and measured here, before anything is sent. A download writes a file
    /// only of a reply of `acceptableContentTypes`; `isAbandoned`: see ``DownloadJob/isAbandoned``.
    init(
        _ transfer: TransferDescription, limit: Int, acceptableContentTypes: [String]? = nil,
        progress: ProgressReporter?, isAbandoned: @escaping @Sendable () -> Bool = { false }
    ) throws(NetworkError) {
        switch transfer {
        case .download(let target):
            self = .sink(
                DownloadJob(
                    target: target, acceptableContentTypes: acceptableContentTypes, isAbandoned: isAbandoned,
                    errorBodyLimit: limit, progress: progress))
        case .upload(let source):
            self = .sink(UploadRoute(body: try UploadBody.prepare(source), limit: limit, progress: progress))
        }
    }
}

/// An upload: the body streamed from memory or disk; the reply in memory, up to `limit` bytes.
struct UploadRoute: SinkRoute {
    let body: UploadBody
    let limit: Int
    let progress: ProgressReporter?

    var bodyLength: Int64? { body.length }
    var memoryLimit: Int? { limit }

    func makeSink(for request: URLRequest, on transport: SessionTransport) -> any TransferSink {
        MemorySink(limit: limit, method: request.httpMethod)
    }

    func makeBody() -> (any TransferBody)? {
        BodySource(body, progress: progress)
    }
}

extension SessionTransport {
    /// The seam where tests inject a slow or full disk; read as each download opens its file.
    var disk: any DownloadDisk {
        get { downloadDisk as? any DownloadDisk ?? FileSystemDisk() }
        set { downloadDisk = newValue }
    }
}
