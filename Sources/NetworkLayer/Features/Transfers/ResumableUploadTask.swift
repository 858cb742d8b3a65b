import Foundation

/// One resumable upload, tus 1.0 or the IETF draft (their differences in ``UploadDialect``): created with
/// `POST`, appended to with `PATCH`, its offset asked with `HEAD` after an interruption. It is a
/// ``ComposedCall``: each exchange is a step of its own through the layer's `send`, under the call's
/// origin rule (an upload URL on another origin gets none of the caller's credentials), its total limit
/// and its cancel. One step or wait runs at a time, each begun from the previous one's handler; the lock
/// guards what the server is known to have.
final class ResumableUploadTask<Value>: NetworkTask {
    struct State {
        var uploadURL: URL?
        /// What the server is known to have.
        var offset: Int64 = 0
        /// Failed steps since the server's offset last moved forward.
        var failures = 0
        /// Appends refused as out of step since the server's offset last moved forward (see
        /// ``ResumableUploadTask/offsetConflicts``).
        var offsetQuestions = 0
        /// The most bytes the next append carries: the caller's ``ResumableUpload/chunkSize`` (at least 1),
        /// halved after each `413` down to ``ResumableUploadTask/chunkFloor``.
        var chunkSize: Int64
    }

    let call: ComposedCall
    // The caller's request and success handler: read by one step at a time (see the type's comment).
    let request: UncheckedSendable<NetworkRequest<Value>>
    let successHandler: UncheckedSendable<(NetworkResponse<Value>) -> Void>
    let file: URL
    let length: Int64
    let policy: RetryPolicy
    let dialect: UploadDialect
    /// The smallest size a `413` halves the appends to: ``ResumableUpload/minimumChunkSize``, or the
    /// caller's size when smaller.
    let chunkFloor: Int64
    let state: Locked<State>
    /// Told each offset the server confirms; `nil` when no monitor observes attempts.
    let monitors: MonitorGroup?

    /// Starts the upload `request` describes (a file, sent resumably) and returns its task.
    static func start(
        _ request: NetworkRequest<Value>, on layer: NetworkLayer,
        successHandler: @escaping (NetworkResponse<Value>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> any NetworkTask {
        ResumableUploadTask(request, on: layer, successHandler: successHandler, errorHandler: errorHandler)
    }

    /// Makes the upload and starts it: its first step, or its failure when `request` sends no file.
    private init(
        _ request: NetworkRequest<Value>, on layer: NetworkLayer,
        successHandler: @escaping (NetworkResponse<Value>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) {
        call = ComposedCall(request, on: layer, errorHandler: errorHandler)
        self.request = UncheckedSendable(value: request)
        self.successHandler = UncheckedSendable(value: successHandler)
        let source = Result { () throws(NetworkError) -> (file: URL, length: Int64) in
            guard case .upload(let source)? = request.transfer, case .file(let url, _) = source else {
                throw .invalidRequest("A resumable upload sends a file.")
            }
            return (url, try source.length())
        }
        (file, length) = (try? source.get()) ?? (URL(fileURLWithPath: "/"), 0)
        policy = request.retryPolicy ?? layer.retryPolicy
        dialect = UploadDialect(request.resumable?.uploadProtocol ?? .tus)
        // A stored upload: the server is asked how much it kept rather than the file created again.
        let point = request.uploadJournal?.resumePoint
        let chunkSize = max(1, request.resumable?.chunkSize ?? ResumableUpload.defaultChunkSize)
        chunkFloor = min(chunkSize, ResumableUpload.minimumChunkSize)
        state = Locked(State(uploadURL: point?.uploadURL, offset: point?.offset ?? 0, chunkSize: chunkSize))
        let group = layer.monitorGroup(for: request)
        monitors = group?.wantsAttemptEvents == true ? group : nil
        if case .failure(let error) = source {
            call.fail(error)
        } else {
            askOffset()
        }
    }

    var priority: RequestPriority {
        get { call.priority }
        set { call.priority = newValue }
    }

    func cancel() {
        // Only the cancel that ended the upload removes it: one that lost to the last reply leaves the
        // finished upload alone. A stored upload stays on the server, for the store's `resume`.
        guard call.endByCancelling(), dialect.deletesWhenCancelled, request.value.uploadJournal == nil,
            // Read once the call ended, not before: a creation whose reply was handled while this cancel
            // began has its URL here, and is deleted rather than left on the server.
            let url = state.withLock({ $0.uploadURL })
        else { return }
        call.sendAfterEnd(step(.delete, url.absoluteString, headers: [:]))
    }

    // MARK: - The steps

    private func create() {
        call.send(
            step(.post, request.value.urlString, headers: dialect.creationHeaders(length)),
            successHandler: { [self] response in
                guard dialect.recognizes(response.headers),
                    let location = response.headers["Location"],
                    let url = URL(string: location, relativeTo: response.url)?.absoluteURL
                else { return unsupported(status: response.statusCode) }
                state.withLock { ($0.uploadURL, $0.offset) = (url, 0) }
                confirmed(0, at: url)
                let next: @Sendable () -> Void = { [self] in
                    // An empty file is complete once created.
                    guard length > 0 else { return succeed(response, at: url) }
                    append()
                }
                // The first byte goes only once the journal holds the URL: a kill before leaves an empty
                // upload on the server, never one holding bytes that no record knows.
                guard let journal = request.value.uploadJournal else { return next() }
                journal.created(url, then: next)
            },
            errorHandler: { [self] error in
                if case .unacceptableStatusCode(let status, _, _) = error, [404, 405, 501].contains(status) {
                    return unsupported(status: status)
                }
                retry(after: error, of: .post) { [self] in create() }
            })
    }

    /// Sends the next chunk of the file (see ``State/chunkSize``) from the offset the server is known to
    /// have.
    private func append() {
        let (url, offset, count) = state.withLock { state in
            (state.uploadURL, state.offset, min(state.chunkSize, max(0, length - state.offset)))
        }
        guard let url else { return create() }
        let isLast = offset + count >= length
        let headers = dialect.appendHeaders(isLast).merging(["Upload-Offset": String(offset)]) { $1 }
        let (file, total, progress) = (file, length, request.value.progressHandler)
        let patch = step(.patch, url.absoluteString, headers: headers).map { step in
            var patch = step
            patch.transfer = .upload(
                .fileRange(file, from: offset, length: count, contentType: dialect.appendContentType))
            if let progress {
                patch.progressHandler = { sent in
                    progress(
                        TransferProgress(completedBytes: offset + sent.completedBytes, expectedBytes: total))
                }
            }
            return patch
        }
        call.send(
            patch,
            successHandler: { [self] response in
                // A claim beyond what was sent (so beyond the file too) is refused, as a `HEAD`'s is.
                guard let reached = dialect.reached(response.headers, from: offset, sent: count) else {
                    return call.fail(.invalidResponse)
                }
                confirmed(reached, at: url)
                if isLast, dialect.appendCompletes { return succeed(response, at: url) }
                guard reached < length else { return succeed(response, at: url) }
                // Too little progress is a failure: a server acknowledging a byte at a time can't keep the
                // upload going for ever, each step sending the rest of the file again.
                guard advance(to: reached) else {
                    return retry(after: .timedOut, of: .put) { [self] in append() }
                }
                append()
            },
            errorHandler: { [self] error in
                // Too large for the server or a proxy before it: the rest goes in appends half as large,
                // at once; not below the floor, where the upload can't go in smaller appends.
                if case .unacceptableStatusCode(413, _, _) = error, count > chunkFloor {
                    state.withLock { $0.chunkSize = max(chunkFloor, count / 2) }
                    return append()
                }
                retry(after: error, of: .put) { [self] in askOffset() }
            })
    }

    private func askOffset() {
        guard let url = state.withLock({ $0.uploadURL }) else { return create() }
        call.send(
            step(.head, url.absoluteString, headers: [:]),
            successHandler: { [self] response in
                // A negative offset is a hostile or broken server's: nothing to resume from.
                guard let offset = response.headers["Upload-Offset"].flatMap(Int64.init),
                    (0...length).contains(offset)
                else { return call.fail(.invalidResponse) }
                confirmed(offset, at: url)
                advance(to: offset)
                // The last append's reply was lost after the server stored it all: nothing is left to
                // send, and an empty append would be refused.
                guard offset < length else { return succeed(response, at: url) }
                append()
            },
            errorHandler: { [self] error in
                retry(after: error, of: .head) { [self] in askOffset() }
            })
    }
}
