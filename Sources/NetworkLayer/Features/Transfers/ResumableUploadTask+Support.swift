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

    /// After a failed step: the next one (`then`) after the policy's wait, or the end. A server that
    /// forgot the upload (404, 410) or holds a different offset (409) is asked again at once, within the
    /// policy's attempts; a forgotten upload starts over.
    func retry(after error: NetworkError, of method: HTTPMethod, then next: @escaping @Sendable () -> Void) {
        if case .cancelled = error { return call.fail(error) }
        var status = 0
        if case .unacceptableStatusCode(let code, _, _) = error { status = code }
        let now = call.layer.clock.date
        let delay: TimeInterval? = state.withLock { state in
            state.failures += 1
            if [404, 410].contains(status), method != .post {
                state.uploadURL = nil
                state.offset = 0
            }
            guard ![404, 409, 410].contains(status) || method == .post else {
                return state.failures < policy.maximumAttempts ? 0 : nil
            }
            return policy.delay(afterAttempt: state.failures, of: method, failingWith: error, now: now)
        }
        guard let delay else { return call.fail(error) }
        call.wait(delay, then: next)
    }

    /// The server has `offset` bytes. Moving forward by at least ``requiredProgress(from:)`` starts the
    /// policy's count afresh; less doesn't, so a server that takes a byte now and then can't keep the
    /// upload going by failing in between.
    ///
    /// - Returns: Whether the server moved forward that much.
    @discardableResult
    func advance(to offset: Int64) -> Bool {
        let progressed = state.withLock { state in
            let progressed = offset - state.offset >= requiredProgress(from: state.offset)
            if progressed { state.failures = 0 }
            state.offset = offset
            return progressed
        }
        request.value.uploadJournal?.acknowledged(offset)
        return progressed
    }

    /// The least progress a step from `offset` counts as progress: 64 KiB, or what remains when less.
    /// A step that moves the offset by less is a failure for the retry policy, as libcurl's low-speed
    /// limit ends a transfer too slow to go on, with ``NetworkError/timedOut``.
    ///
    /// The seam for a chunk size (not yet an option): with one, min(64 KiB, the chunk, what remains).
    func requiredProgress(from offset: Int64) -> Int64 {
        min(Self.minimumProgress, max(0, length - offset))
    }

    /// See ``requiredProgress(from:)``.
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
