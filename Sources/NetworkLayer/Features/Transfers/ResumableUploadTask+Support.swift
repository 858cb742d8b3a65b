import Foundation

extension ResumableUploadTask {
    /// One exchange of the upload, with the caller's headers, interceptors, monitors and limits. Each is
    /// tried once: the upload decides what follows a failure, by the caller's retry policy.
    func step<T: Decodable & SendableMetatype>(
        _ method: HTTPMethod, _ urlString: String, headers: [String: String], as type: T.Type
    ) -> NetworkRequest<T> {
        let outer = request.value
        var step = NetworkRequest<T>(
            method: method, urlString: urlString,
            headers: outer.headers.merging(headers) { $1 }.merging(dialect.versionHeaders) { $1 },
            timeout: outer.timeout)
        step.interceptors = outer.interceptors
        step.monitors = outer.monitors
        step.redirectPolicy = outer.redirectPolicy
        step.priority = outer.priority
        step.scheduling = outer.scheduling
        step.account = outer.account
        step.deliversImmediately = outer.deliversImmediately
        step.cachePolicy = .reloadIgnoringCache
        step.retryPolicy = RetryPolicy.none
        return step
    }

    /// Begins a step as the current one; none begins after the upload ended, and one begun as it ends is
    /// cancelled at once.
    func run(_ start: () -> any NetworkTask) {
        let number = state.withLock { state -> Int? in
            guard !state.isFinished else { return nil }
            state.steps += 1
            return state.steps
        }
        guard let number else { return }
        let task = start()
        let isLate = state.withLock { state in
            if state.steps == number, !state.isFinished { state.current = task }
            return state.isFinished
        }
        if isLate { task.cancel() }
    }

    /// After a failed step: the next one (`then`) after the policy's wait, or the end. A server that
    /// forgot the upload (404, 410) or holds a different offset (409) is asked again at once, within the
    /// policy's attempts; a forgotten upload starts over.
    func retry(after error: NetworkError, of method: HTTPMethod, then next: @escaping @Sendable () -> Void) {
        if case .cancelled = error {
            finish(.failure(error))
            return
        }
        var status = 0
        if case .unacceptableStatusCode(let code, _, _) = error { status = code }
        let now = layer.clock.date
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
        guard let delay else {
            finish(.failure(error))
            return
        }
        let timer = layer.clock.run(after: delay, on: Queues.work) { [self] in
            guard !state.withLock({ $0.isFinished }) else { return }
            next()
        }
        let isLate = state.withLock { state in
            if !state.isFinished { state.wait = timer }
            return state.isFinished
        }
        if isLate { timer.cancel() }
    }

    /// The server has `offset` bytes; moving forward starts the policy's count afresh.
    func advance(to offset: Int64) {
        state.withLock { state in
            if offset > state.offset { state.failures = 0 }
            state.offset = offset
        }
        request.value.uploadJournal?.acknowledged(offset)
    }

    func succeed(_ response: NetworkResponse<EmptyResponse>, at url: URL) {
        guard let value = url as? Value else {
            finish(.failure(.invalidResponse))
            return
        }
        finish(.success(response.map { _ in value }))
    }

    /// The server doesn't speak the protocol: the caller's fallback.
    func unsupported(status: Int) {
        guard request.value.resumable?.fallback == .plainUpload else {
            finish(.failure(.resumableUploadUnsupported(protocolName: dialect.name, status: status)))
            return
        }
        var plain = request.value
        plain.resumable = nil
        run { [self] in
            layer.send(
                plain, successHandler: { [self] in finish(.success($0)) },
                errorHandler: { [self] in finish(.failure($0)) })
        }
    }

    /// Ends the upload once: the current step and wait are cancelled, the caller's handler runs on the
    /// callback queue (where it was settled, for a request that delivers immediately).
    ///
    /// - Returns: Whether this call ended it.
    @discardableResult
    func finish(_ result: Result<NetworkResponse<Value>, NetworkError>) -> Bool {
        let leftovers = state.withLock { state -> ((any NetworkTask)?, (any ClockTimer)?)? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            defer { (state.current, state.wait) = (nil, nil) }
            return (state.current, state.wait)
        }
        guard let (task, wait) = leftovers else { return false }
        task?.cancel()
        wait?.cancel()
        let (handlers, outcome) = (handlers, UncheckedSendable(value: result))
        let deliver = { @Sendable in
            switch outcome.value {
            case .success(let response): handlers.value.success(response)
            case .failure(let error): handlers.value.failure(error)
            }
        }
        if request.value.deliversImmediately {
            deliver()
        } else {
            layer.callbackQueue.async(execute: deliver)
        }
        return true
    }
}
