import Foundation

extension ResumableUploadTask {
    /// One exchange of the upload: the protocol's `headers` and version, and what the call's origin rule
    /// lets through of the caller's request. Each is tried once and never answered from the cache: the
    /// upload decides what follows a failure, by the caller's retry policy.
    func step(_ method: HTTPMethod, _ urlString: String, headers: [String: String])
        -> Result<NetworkRequest<EmptyResponse>, NetworkError>
    {
        call.request(
            method, urlString, headers: headers.merging(dialect.versionHeaders) { $1 }, as: EmptyResponse.self
        ).map { step in
            var step = step
            step.cachePolicy = .reloadIgnoringCache
            step.retryPolicy = RetryPolicy.none
            return step
        }
    }

    /// After a failed step: the next one (`then`) after a wait, or the end. A server that forgot the
    /// upload (404, 410) is asked again at once, within the policy's attempts, and the upload starts over.
    /// An append refused as out of step (see ``offsetConflicts``) is followed by asking the offset, up to
    /// ``offsetQuestions`` times with backoff, whatever the policy says; anything else follows the policy.
    func retry(after error: NetworkError, of method: HTTPMethod, then next: @escaping @Sendable () -> Void) {
        if case .cancelled = error { return call.fail(error) }
        let status = error.statusCode ?? 0
        let now = call.layer.clock.date
        let delay: TimeInterval? = state.withLock { state in
            if method == .put, Self.offsetConflicts.contains(status) {
                state.offsetQuestions += 1
                guard state.offsetQuestions <= Self.offsetQuestions else { return nil }
                return Self.offsetQuestionBackoff.delay(afterFailures: state.offsetQuestions)
            }
            state.failures += 1
            guard method == .post || ![404, 410].contains(status) else {
                (state.uploadURL, state.offset) = (nil, 0)
                return state.failures < policy.maximumAttempts ? 0 : nil
            }
            return policy.delay(afterAttempt: state.failures, of: method, failingWith: error, now: now)
        }
        guard let delay else { return call.fail(error) }
        call.wait(delay, then: next)
    }

    /// The statuses to an append (`PATCH`) that say it was out of step with the server rather than wrong:
    /// 409 (the offset sent isn't the server's: tus, and the IETF draft), 403 (how some IETF draft servers
    /// refuse a wrong offset) and 423 (another request holds the upload: tusd while an earlier `PATCH`, one
    /// the client gave up on, is still being received). The protocols resynchronise by asking the offset
    /// again: not a retry of the same request, so outside the caller's ``RetryPolicy``.
    static var offsetConflicts: Set<Int> { [403, 409, 423] }

    /// How many times in a row an append refused as out of step is followed by asking the offset, before
    /// the upload fails with that refusal: 3. The count starts afresh when the offset moves forward (see
    /// ``advance(to:)``).
    static var offsetQuestions: Int { 3 }

    /// The wait before the first offset question after a conflict, doubled for each next one (0.2, 0.4,
    /// 0.8 s): time for the server to finish reading an append the client gave up on.
    static var offsetQuestionBackoff: Backoff { Backoff(initialDelay: 0.2, maximumDelay: 0.8) }

    /// The server has `offset` bytes. Moving forward by at least ``minimumProgress`` starts the
    /// policy's count (and the offset questions') afresh; less doesn't, so a server that takes a byte now and then can't keep the
    /// upload going by failing in between.
    ///
    /// - Returns: Whether the server moved forward that much.
    @discardableResult
    func advance(to offset: Int64) -> Bool {
        let progressed = state.withLock { state in
            let required = min(Self.minimumProgress, state.chunkSize, max(0, length - state.offset))
            let progressed = offset - state.offset >= required
            if progressed { (state.failures, state.offsetQuestions) = (0, 0) }
            state.offset = offset
            return progressed
        }
        request.value.uploadJournal?.acknowledged(offset)
        return progressed
    }

    /// Tells the monitors the server holds `offset` bytes of the upload at `url` (see
    /// ``NetworkMonitor/didConfirmUploadOffset(_:of:at:)``).
    func confirmed(_ offset: Int64, at url: URL) {
        let length = length
        monitors?.emit { $0.didConfirmUploadOffset(offset, of: length, at: url) }
    }

    /// The least progress a step from an offset counts as progress: 64 KiB, or the chunk size or what
    /// remains when less. A step that moves the offset by less is a failure for the retry policy, as
    /// libcurl's low-speed limit ends a transfer too slow to go on, with ``NetworkError/timedOut``.
    static var minimumProgress: Int64 { 64 * 1_024 }

    func succeed(_ response: NetworkResponse<EmptyResponse>, at url: URL) {
        guard let value = url as? Value else { return call.fail(.invalidResponse) }
        let handler = successHandler
        call.succeed { handler.value(response.map { _ in value }) }
    }

    /// The server doesn't speak the protocol: the caller's fallback, its own request sent as it is.
    func unsupported(status: Int) {
        guard request.value.resumable?.fallback == .plainUpload else {
            return call.fail(.resumableUploadUnsupported(protocolName: dialect.name, status: status))
        }
        var plain = request.value
        plain.resumable = nil
        let handler = successHandler
        call.send(
            .success(plain), successHandler: { [call] response in call.succeed { handler.value(response) } },
            errorHandler: { [call] in call.fail($0) })
    }
}
