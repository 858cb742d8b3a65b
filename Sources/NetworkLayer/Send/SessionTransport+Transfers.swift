import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How one request's body and reply travel: the reply in memory, the reply to a file, or the body from
/// a stream.
enum TransportRoute: Sendable {
    /// An ordinary request: the reply in memory, up to `limit` bytes.
    case data(limit: Int)
    /// A download: the reply written to the job's partial file; an error reply in memory, up to `limit`.
    case download(DownloadJob, limit: Int, progress: ProgressReporter?)
    /// An upload: the body streamed from memory or disk; the reply in memory, up to `limit` bytes.
    case upload(UploadBody, limit: Int, progress: ProgressReporter?)

    /// The body bytes an attempt sends, for metrics; `nil` when it is the request's `httpBody`.
    var bodyLength: Int64? {
        if case .upload(let body, _, _) = self { return body.length }
        return nil
    }
}

extension SessionTransport {
    /// Starts `request` by `route`; `completion` runs once, on the session's delegate queue.
    ///
    /// - Returns: A closure that cancels the request, safe to call from any thread, any number of times.
    func send(
        _ request: URLRequest, route: TransportRoute, redirectPolicy: RedirectPolicy,
        completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        switch route {
        case .data(let limit):
            return send(request, limit: limit, redirectPolicy: redirectPolicy, completion: completion)
        case .download(let job, let limit, let progress):
            return download(job, request, limit, redirectPolicy, progress, completion)
        case .upload(let body, let limit, let progress):
            return upload(body, request, limit, redirectPolicy, progress, completion)
        }
    }

    private func download(
        _ job: DownloadJob, _ request: URLRequest, _ limit: Int, _ redirectPolicy: RedirectPolicy,
        _ progress: ProgressReporter?, _ completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        let session = session
        let delegate = delegate
        let transfer = DownloadTransfer(
            job: job, request: request, errorBodyLimit: limit, redirectPolicy: redirectPolicy,
            delegateQueue: delegateQueue, progress: progress,
            startTask: { request, transfer in
                let task = session.dataTask(with: Self.withBackstopTimeout(request))
                delegate.add(transfer, for: task)
                task.resume()
                return task
            },
            completion: completion)
        transfer.start()
        return { transfer.stopFromAnyThread(because: nil) }
    }

    private func upload(
        _ body: UploadBody, _ request: URLRequest, _ limit: Int, _ redirectPolicy: RedirectPolicy,
        _ progress: ProgressReporter?, _ completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        let idleTimeout = request.timeoutInterval
        var request = Self.withBackstopTimeout(request)
        let stream = body.makeStream()
        request.httpBodyStream = stream
        // The exact length, whatever an interceptor did to the header.
        request.setValue(String(body.length), forHTTPHeaderField: "Content-Length")
        #if canImport(FoundationNetworking)
            // A blank Transfer-Encoding stops libcurl from adding `chunked` next to the Content-Length (both
            // would go out, and servers refuse that); libcurl sends no header for a blank value.
            request.setValue(" ", forHTTPHeaderField: "Transfer-Encoding")
        #endif
        let reply = DataTransfer(
            limit: limit, idleTimeout: idleTimeout, method: request.httpMethod,
            redirectPolicy: redirectPolicy, delegateQueue: delegateQueue, completion: completion)
        let transfer = UploadTransfer(reply: reply, body: body, stream: stream, progress: progress)
        delegateQueue.callingSession {
            let task = session.dataTask(with: request)
            delegate.add(transfer, for: task)
            transfer.start(task)
        }
        return { transfer.stopFromAnyThread(because: nil) }
    }
}

extension TransportRoute {
    /// The route for a request that is a `transfer` (or an ordinary one, for `nil`); an upload's body is
    /// checked and measured here, before anything is sent.
    init(_ transfer: TransferDescription?, limit: Int, progress: ProgressReporter?) throws(NetworkError) {
        switch transfer {
        case nil:
            self = .data(limit: limit)
        case .download(let target)?:
            self = .download(DownloadJob(target: target), limit: limit, progress: progress)
        case .upload(let source)?:
            self = .upload(try UploadBody.prepare(source), limit: limit, progress: progress)
        }
    }
}
