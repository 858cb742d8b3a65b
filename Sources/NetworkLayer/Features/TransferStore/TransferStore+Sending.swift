import Foundation

extension TransferStore {
    /// Records `request` and sends it through the layer: a resumable upload from a file, or a download.
    /// The record is on disk (in the operating system's hands) when this returns.
    ///
    /// - Parameters:
    ///   - request: A request made by ``NetworkRequest/upload(urlString:fileURL:resumable:contentType:headers:)``
    ///     or ``NetworkRequest/download(urlString:to:options:headers:)``.
    ///   - successHandler: Receives the upload's URL or the downloaded file on the layer's callback queue;
    ///     the record is gone by then.
    ///   - errorHandler: Receives the failure on the layer's callback queue; the record stays for
    ///     ``resume(_:ifSourceChanged:retryPolicy:progressHandler:successHandler:errorHandler:)``.
    /// - Returns: The transfer, which can be cancelled (its record stays).
    /// - Throws: ``TransferStoreError/unsupportedRequest(_:)`` for another kind of request,
    ///   ``TransferStoreError/credentialHeaders(_:)`` for a request carrying a header from the layer's
    ///   credential list (add it with an interceptor instead),
    ///   ``TransferStoreError/writeFailed(_:)`` when the record can't be written, or
    ///   ``TransferStoreError/closed`` after ``close()``; nothing was sent.
    @discardableResult
    public func send(
        _ request: NetworkRequest<URL>, successHandler: @escaping (NetworkResponse<URL>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) throws(TransferStoreError) -> any NetworkTask {
        let record = try makeRecord(for: request)
        try writeNow(record)
        // Checked again where the run begins: a `close()` since the write would never cancel it. The
        // record written stays, as close() leaves every record, for the next store.
        let run = try state.withLock { $0.begin(record.id, adding: record) }.get().run
        return start(record, request, run: run, successHandler: successHandler, errorHandler: errorHandler)
    }

    /// Sends `transfer` again: an upload asks the server how much it has and sends the rest, a download
    /// asks for the bytes after those on disk. Progress starts from what is done. The request carries the
    /// stored headers and the retry policy the transfer was sent with (or `retryPolicy`); the layer's
    /// interceptors add credentials.
    ///
    /// - Parameters:
    ///   - transfer: A transfer from ``unfinishedTransfers``.
    ///   - ifSourceChanged: What to do when an upload's source file's size or modification date differs
    ///     from when it began; ``SourceChangeAction/fail`` by default.
    ///   - retryPolicy: The policy for this run; `nil` (the default) keeps the one the transfer's request
    ///     carried when it was sent, and the layer's when it carried none.
    ///   - progressHandler: Told how far the transfer has come, on the layer's callback queue.
    ///   - successHandler: Receives the upload's URL or the downloaded file; the record is gone by then.
    ///   - errorHandler: Receives the failure (``NetworkError/sourceFileChanged(_:)`` among others); the
    ///     record stays.
    /// - Returns: The transfer, which can be cancelled (its record stays).
    /// - Throws: ``TransferStoreError/notFound``, ``TransferStoreError/alreadyRunning``,
    ///   ``TransferStoreError/closed`` after ``close()``, or ``TransferStoreError/writeFailed(_:)`` when
    ///   starting over can't be recorded.
    @discardableResult
    public func resume(
        _ transfer: StoredTransfer, ifSourceChanged: SourceChangeAction = .fail,
        retryPolicy: RetryPolicy? = nil,
        progressHandler: ((TransferProgress) -> Void)? = nil,
        successHandler: @escaping (NetworkResponse<URL>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) throws(TransferStoreError) -> any NetworkTask {
        // The run is reserved with the check, so a second `resume` racing this one is refused, and a
        // `remove` meanwhile ends it (see `start`).
        var (record, run) = try state.withLock { $0.begin(transfer.id) }.get()
        var request = Self.request(for: record)
        request.retryPolicy = retryPolicy ?? request.retryPolicy
        request.progressHandler = progressHandler
        var failure: NetworkError?
        // The source as it is now (`nil` when it is gone), against its size and date when recorded.
        if record.kind == .upload, case let now = TransferRecord.source(of: record.fileURL),
            now == nil || now?.size != record.sourceSize || now?.modified != record.sourceModified
        {
            failure = .sourceFileChanged(record.fileURL)
            if ifSourceChanged == .startOver {
                (record.uploadURL, record.offset) = (nil, 0)
                (record.sourceSize, record.sourceModified) = (now?.size, now?.modified)
                do {
                    try writeNow(record)
                } catch {
                    state.withLock { $0.end(record.id, run: run) }
                    throw error
                }
                let updated = state.withLock { state in
                    let current = state.runs[record.id]?.number == run && state.records[record.id] != nil
                    if current { state.records[record.id] = record }
                    return current
                }
                // Removed while the new record was written: it goes again, and nothing is sent.
                if !updated { onDisk { [folder, name = record.fileName] in folder.remove(name) } }
                failure = updated ? nil : .cancelled
            }
        }
        return start(
            record, request, run: run, failingWith: failure, successHandler: successHandler,
            errorHandler: errorHandler)
    }

    /// Sends `request` for `record`, an upload with a journal on it; the record goes when it succeeds.
    /// The run is a call whose one step is the transfer's request: it ends once, where the layer delivers
    /// (at once for a request that ``NetworkRequest/deliversImmediately``), and its end by any failure (a
    /// cancel too) ends the run, so the transfer can be resumed. A run `failingWith` an error ends before
    /// anything is sent: it ends now, and the error handler gets the error once.
    private func start(
        _ record: TransferRecord, _ request: NetworkRequest<URL>, run: Int,
        failingWith failure: NetworkError? = nil,
        successHandler: @escaping (NetworkResponse<URL>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> any NetworkTask {
        let id = record.id
        var request = request
        if record.kind == .upload {
            let point = record.uploadURL.flatMap(URL.init(string:)).map {
                (uploadURL: $0, offset: record.offset)
            }
            request.uploadJournal = StoreJournal(store: self, id: id, resumePoint: point)
        }
        let call = ComposedCall(
            request, on: layer,
            errorHandler: { [self] error in
                state.withLock { $0.end(id, run: run) }
                errorHandler(error)
            })
        if let failure {
            state.withLock { $0.end(id, run: run) }
            call.fail(failure)
            return call
        }
        call.send(
            .success(request),
            successHandler: { [self] response in
                // The record goes as the success is delivered, not before: a cancel may still replace it,
                // and a cancelled transfer keeps its record.
                call.succeed { [self] in
                    finish(id)
                    successHandler(response)
                }
            }, errorHandler: { call.fail($0) })
        // A run that `remove` ended before its task was known: the task goes too.
        if !state.withLock({ $0.keep(call, for: id, run: run) }) { call.cancel() }
        return call
    }

    /// Removes the record of a transfer that succeeded, and waits: once the caller's handler runs, no
    /// later launch finds the transfer (a kill right after would otherwise leave a finished one listed).
    private func finish(_ id: UUID) {
        let record = state.withLock { state in
            state.runs[id] = nil
            return state.records.removeValue(forKey: id)
        }
        guard let record else { return }
        // Handlers never run on the disk queue (a call delivering immediately leaves it first); should
        // one, waiting for a queue that targets it would wait for itself.
        onDisk(waiting: !Queues.isReserved) { [folder] in folder.remove(record.fileName) }
    }

    /// The upload was created at `uploadURL`, or the server acknowledged `offset` bytes: the record is
    /// rewritten each time the offset moves, once per append (see ``ResumableUpload/chunkSize``), so
    /// ``StoredTransfer/completedBytes`` after a kill is the last append acknowledged. The record is
    /// written as it is then, on the store's queue; one removed meanwhile stays removed. Then `next` runs
    /// on the work queue, written or not (a closed store writes nothing; a failed write leaves the record
    /// as it was), never on the disk queue, since it may send.
    func recordProgress(
        _ id: UUID, uploadURL: URL?, offset: Int64, then next: (@Sendable () -> Void)? = nil
    ) {
        let due = state.withLock { state -> Bool in
            guard let record = state.records[id], uploadURL != nil || offset != record.offset else {
                return false
            }
            state.records[id]?.uploadURL = uploadURL?.absoluteString ?? record.uploadURL
            state.records[id]?.offset = offset
            return true
        }
        // Not due, `next` still runs, after the writes asked for before it.
        guard due || next != nil else { return }
        onDisk { [self] in
            if let record = state.withLock({ $0.records[id] }) { try? write(record) }
        }
        if let next { queue.async { Queues.work.async(execute: next) } }
    }

    private func makeRecord(for request: NetworkRequest<URL>) throws(TransferStoreError) -> TransferRecord {
        // Refused, not left out: a resume after a relaunch would go without it and fail.
        let credentials = layer.credentialHeaders(for: request).credentials(in: request.headers)
        guard credentials.isEmpty else { throw .credentialHeaders(credentials) }
        let url: String
        do {
            url = try layer.builder.urlRequest(for: request).url?.absoluteString ?? request.urlString
        } catch {
            throw .unsupportedRequest(error.message)
        }
        var record = TransferRecord(
            id: UUID(), kind: .download, file: "", url: url, method: request.method.rawValue,
            headers: request.headers, sequence: state.withLock { $0.nextSequence() })
        record.retryPolicy = request.retryPolicy.flatMap(StoredRetryPolicy.init)
        switch request.transfer {
        case .download(let target)?:
            record.file = target.destination.path
            // Applied once, by this send: a resume continues the partial file.
            record.downloadOptions = target.options.subtracting(.restart).rawValue
        case .upload(.file(let file, let contentType))? where request.resumable != nil:
            guard let source = TransferRecord.source(of: file) else {
                throw .unsupportedRequest("The file \(file.lastPathComponent) can't be read.")
            }
            (record.kind, record.file, record.contentType) = (.upload, file.path, contentType)
            record.protocolName = request.resumable?.uploadProtocol == .ietfDraft ? "ietfDraft" : "tus"
            record.fallsBackToPlainUpload = request.resumable?.fallback == .plainUpload
            let chunkSize = request.resumable?.chunkSize ?? ResumableUpload.defaultChunkSize
            record.chunkSize = chunkSize == ResumableUpload.defaultChunkSize ? nil : chunkSize
            (record.sourceSize, record.sourceModified) = (source.size, source.modified)
        default:
            throw .unsupportedRequest(
                "A transfer store keeps resumable uploads from a file and downloads to a file.")
        }
        return record
    }

    /// The request a stored transfer is sent again with.
    private static func request(for record: TransferRecord) -> NetworkRequest<URL> {
        var request: NetworkRequest<URL>
        if record.kind == .upload {
            let fallback: ResumableUpload.Fallback = record.fallsBackToPlainUpload ? .plainUpload : .fail
            var resumable: ResumableUpload =
                record.protocolName == "ietfDraft" ? .ietfDraft(fallback: fallback) : .tus(fallback: fallback)
            resumable.chunkSize = record.chunkSize ?? ResumableUpload.defaultChunkSize
            request = NetworkRequest.upload(
                urlString: record.url, fileURL: record.fileURL, resumable: resumable,
                contentType: record.contentType, headers: record.headers)
        } else {
            request = NetworkRequest.download(
                urlString: record.url, to: record.fileURL,
                options: DownloadOptions(rawValue: record.downloadOptions ?? 0), headers: record.headers)
            request.method = HTTPMethod(rawValue: record.method) ?? .get
        }
        request.retryPolicy = record.retryPolicy?.policy
        return request
    }
}
