import Foundation

extension Outbox {
    private static let storedMethods: Set<HTTPMethod> = [.post, .put, .patch, .delete]

    /// A new item for `request`, its sequence taken. Called on ``queue``.
    ///
    /// A credential header is refused, not left out: the item would go out without it after a relaunch
    /// and fail, and interceptors add credentials at send time anyway, so no file holds a secret.
    func makeItem(_ request: OutboxRequest) throws(OutboxError) -> OutboxItem {
        guard Self.storedMethods.contains(request.method) else { throw .unsupportedMethod(request.method) }
        let credentials = layer.credentialHeaders.credentials(in: request.headers)
        guard credentials.isEmpty else { throw .credentialHeaders(credentials) }
        // Read now, not at send time: a switch of users before the item goes out must not make it theirs.
        let account = try request.account.resolved(
            current: layer.cacheAccountReader(for: NetworkRequest<Data>(urlString: ""))
        ).get()
        let encoded = try Result { try request.body.encoded(with: options.encoder ?? layer.encoder) }
            .mapError(OutboxError.encodingFailed).get()
        var headers = request.headers
        if let encoded, !headers.keys.contains(where: { $0.lowercased() == "content-type" }) {
            headers["Content-Type"] = encoded.contentType
        }
        let body = encoded?.data ?? Data()
        let date = layer.clock.date
        let timeToLive = request.timeToLive ?? options.timeToLive
        return try state.withLock { state -> Result<OutboxItem, OutboxError> in
            // A refused item's sequence goes unused: sequences only need to grow.
            let item = OutboxItem(
                id: UUID(), sequence: state.takeSequence(), kind: request.kind, account: account,
                method: request.method.rawValue, urlString: request.urlString, headers: headers,
                body: body, query: request.query, idempotencyKey: UUID().uuidString, enqueuedAt: date,
                expiresAt: timeToLive.map { date.addingTimeInterval($0) }, attempts: 0, deadLetter: nil)
            let size = state.items.reduce(item.storedSize) { $0 + $1.storedSize }
            guard state.items.count < options.maximumItemCount, size <= options.maximumSize else {
                return .failure(.full)
            }
            return .success(item)
        }.get()
    }

    /// Sends the first item if nothing stops it: an attempt on its way, a wait, a dead letter (which
    /// pauses the queue), another account. Called on ``queue``.
    func deliverNext() {
        guard let item = state.withLock({ $0.next }), item.deadLetter == nil else { return }
        if let expiry = item.expiresAt, expiry <= layer.clock.date {
            return deadLetter(item, .expired)
        }
        let check = OutboxAccountCheck(item: item, layer: layer)
        if !check.matches {
            if options.accountMismatch == .deadLetter { deadLetter(item, .accountMismatch) }
            return
        }
        let request = request(for: item, check: check)
        // Each attempt and the wait after it are one call: a cancel stops whichever runs. Without a total
        // limit: the wait is as long as the backoff says; each attempt has its own.
        var whole = request
        whole.resourceTimeout = .infinity
        let call = ComposedCall(whole, on: layer) { _ in }
        state.withLock { $0.inFlight = (item.id, call, false) }
        let settle = { [weak self] (result: Result<NetworkResponse<Data>, NetworkError>) in
            guard let self else { return }
            queue.async { self.finish(item.id, with: result, check: check, call: call) }
        }
        call.send(
            .success(request), successHandler: { settle(.success($0)) },
            errorHandler: { settle(.failure($0)) })
    }

    private func request(for item: OutboxItem, check: OutboxAccountCheck) -> NetworkRequest<Data> {
        // The stored `Content-Type` goes as a header, which wins over the body's.
        var request = NetworkRequest<Data>(
            method: HTTPMethod(rawValue: item.method) ?? .post, urlString: item.urlString, query: item.query,
            headers: item.headers.merging(["Idempotency-Key": item.idempotencyKey]) { $1 },
            body: item.body.isEmpty ? .empty : .data(item.body, contentType: "application/octet-stream"))
        // The outbox keeps its own backoff across relaunches; the layer's policy would retry a POST blindly.
        request.retryPolicy = RetryPolicy.none
        // The handlers only hop to the outbox's queue: no reason to wait for the callback queue.
        request.deliversImmediately = true
        request.interceptors = [check]
        return request
    }

    /// Settles an attempt. Called on ``queue``.
    private func finish(
        _ id: UUID, with result: Result<NetworkResponse<Data>, NetworkError>, check: OutboxAccountCheck,
        call: ComposedCall
    ) {
        let item = state.withLock { state -> OutboxItem? in
            guard state.inFlight?.call === call, let index = state.items.firstIndex(where: { $0.id == id })
            else { return nil }
            state.items[index].attempts += 1
            return state.items[index]
        }
        // Removed meanwhile: nothing to settle.
        guard let item else { return deliverNext() }
        switch result {
        case .success(let response):
            end(call)
            storage.remove(item)
            _ = state.withLock { $0.remove(id) }
            announce(.delivered(item, response))
            deliverNext()
        case .failure(let error) where check.mismatched:
            end(call, error)
            if options.accountMismatch == .deadLetter { deadLetter(item, .accountMismatch) }
        case .failure(let error):
            failed(item, with: error, call: call)
        }
    }

    /// The next attempt after the backoff, or after the server's `Retry-After`, on the call's retry wait.
    private func failed(_ item: OutboxItem, with error: NetworkError, call: ComposedCall) {
        guard case .retry(let retryAfter) = OutboxVerdict(error, now: layer.clock.date) else {
            end(call, error)
            return deadLetter(item, .rejected(error))
        }
        let failures = state.withLock { state in
            state.failures += 1
            state.inFlight?.waiting = true
            return state.failures
        }
        // An endless backoff (infinite bounds) is no timer: the item waits for `flush()`.
        // The upper half at random: many devices back online at once spread out, none comes back at once.
        let backoff = Backoff(
            initialDelay: options.initialDelay, maximumDelay: options.maximumDelay, jitter: .upperHalf)
        guard
            let delay = retryAfter.map({ min($0, options.maximumDelay) })
                ?? backoff.delay(afterFailures: failures)
        else { return end(call, error) }
        call.wait(delay) { [weak self] in
            guard let self else { return }
            queue.async {
                guard self.state.withLock({ $0.inFlight?.call === call }) else { return }
                self.end(call)
                self.deliverNext()
            }
        }
    }

    /// Ends the attempt or wait `call` (with `error`, else done) if it is still the one under way.
    private func end(_ call: ComposedCall, _ error: NetworkError? = nil) {
        _ = state.withLock { $0.end(call) }
        if let error { call.fail(error) } else { call.succeed {} }
    }

    /// Stops the item until the app retries or removes it; its queue waits. Called on ``queue``.
    func deadLetter(_ item: OutboxItem, _ error: OutboxError) {
        var item = item
        let networkError: NetworkError? = if case .rejected(let error) = error { error } else { nil }
        item.deadLetter = OutboxDeadLetter(
            statusCode: networkError?.statusCode,
            body: Data((networkError?.responseBody ?? Data()).prefix(OutboxDeadLetter.largestBody)),
            message: error.message)
        state.withLock { $0.update(item) }
        // Kept in memory if the write fails: the item is then sent again after a relaunch, never lost.
        try? storage.save(item, flushToDevice: options.flushesToDevice)
        announce(.deadLettered(item, error))
    }
}
