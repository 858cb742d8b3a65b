import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkLayer {
    /// The pipeline behind ``send(_:successHandler:errorHandler:)``: build, send, validate, decode,
    /// deliver.
    ///
    /// A `stream` takes the reply as it arrives, on the streams' session, reconnecting by its own rules.
    /// A test double passes an in-process transport and where its handlers run: the rest is the same.
    func perform<Value>(
        _ request: NetworkRequest<Value>, stream: StreamSetup? = nil,
        through inProcess: InProcessTransport? = nil,
        delivery: CallbackDelivery? = nil,
        successHandler: @escaping (NetworkResponse<Value>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        let meter = RequestMeter(stream: stream?.state)
        let transport: any AttemptTransport = inProcess ?? (stream == nil ? transport : streamTransport)
        // A request's own monitors and interceptors come after the layer's.
        let monitorGroup = MonitorGroup.forRequest(
            layer: monitorGroup, extra: request.monitors, on: monitorsQueue)
        let interceptors = interceptors + request.interceptors + (stream.map { [$0.reconnection] } ?? [])
        let monitors = monitorGroup?.channel()
        let monitored = monitors.map { _ in
            MonitoredRequest(method: request.method, url: try? builder.url(for: request))
        }
        var report: (@Sendable (Result<NetworkResponse<Data>, NetworkError>) -> Void)?
        if let monitors, let monitored {
            report = { result in
                // A success carries the metrics its handler sees.
                let metrics = (try? result.get())?.metrics ?? meter.metrics
                monitors.finish { $0.didFinish(monitored, with: result, metrics: metrics) }
            }
        }
        let progress = request.progressHandler.map { ProgressReporter(queue: callbackQueue, handler: $0) }
        let task = RequestTask(
            delivery: delivery ?? CallbackDelivery(queue: stream?.callbackQueue ?? callbackQueue),
            failureHandler: progress.map { progress in
                {
                    progress.end()
                    errorHandler($0)
                }
            } ?? errorHandler,
            report: report, cancelWaitsForTransport: request.transfer?.isDownload == true)
        if let refusal = transport.refusal {
            task.fail(.invalidRequest(refusal))
            return task
        }
        let urlRequest: URLRequest
        do {
            urlRequest = try builder.urlRequest(for: request)
        } catch {
            task.fail(error)
            return task
        }
        let decoding = request.decoding(decoder)
        // Decoding and the success handler are not Sendable; they go from here to the one queue that
        // decodes, and the handler on to the callback queue (see UncheckedSendable).
        let finish = UncheckedSendable(value: { (reply: Reply) in
            do throws(NetworkError) {
                // A test double's answer is used as it is when it has the type asked for, and when a
                // reply could carry it: a HEAD or 204 reply decodes as it would from the network.
                let value: Value
                // Not `providedValue?.value as? Value`: that casts a missing value to an optional `Value`.
                if let provided = reply.providedValue, !reply.cannotHaveContent,
                    let typed = provided.value as? Value
                {
                    value = typed
                } else {
                    value = try decoding.decode(reply)
                }
                let response = NetworkResponse(
                    value: value, statusCode: reply.response.statusCode,
                    headers: ResponseHeaders(reply.response), url: reply.response.url, data: reply.body,
                    metrics: meter.metrics, cacheStatus: reply.cacheStatus)
                task.succeed(raw: monitors == nil ? nil : response.map { _ in reply.body }) {
                    progress?.finish()
                    successHandler(response)
                }
            } catch {
                task.fail(error)
            }
        })
        let decodesInPlace = !decoding.runsCallerCode || transport.answersInPlace
        let deliver: @Sendable (Result<Reply, NetworkError>) -> Void = { result in
            switch result {
            case .failure(let error):
                task.fail(error)
            case .success(let reply) where decodesInPlace:
                finish.value(reply)
            case .success(let reply):
                // Off the session's serial delegate queue: a slow `Decodable` must not hold up every other
                // request on the session.
                DispatchQueue.global(qos: .userInitiated).async { finish.value(reply) }
            }
        }
        // A download writes a file for 2xx replies alone, whatever the request accepts.
        let isDownload = request.transfer?.isDownload == true
        let expectation = ReplyExpectation(
            method: request.method, acceptableContentTypes: request.acceptableContentTypes,
            acceptableStatusCodes: isDownload ? nil : request.acceptableStatusCodes, isDownload: isDownload)
        let limit = request.maximumResponseSize ?? maximumResponseSize
        let route: TransportRoute
        do throws(NetworkError) {
            if let stream {
                route = .stream(stream.route)
            } else {
                route = try TransportRoute(
                    request.transfer, limit: limit, acceptableContentTypes: request.acceptableContentTypes,
                    progress: progress)
            }
        } catch {
            task.fail(error)
            return task
        }
        // A stream is never stored: its events are delivered as they arrive.
        let caching =
            stream != nil
            ? nil
            : cache.map {
                CachingTransport(
                    cache: $0, policy: request.cachePolicy, transport: transport,
                    account: cacheAccount(for: request))
            }
        let settle =
            OfflineFallback(caching, request: urlRequest, route: route, expecting: expectation)?
            .answering(deliver) ?? deliver
        let redirectPolicy = request.redirectPolicy ?? redirectPolicy
        let checker = builder
        let adapts = !interceptors.isEmpty
        // The URL that answered the latest attempt, for the interceptors that judge its failure.
        let answeredBy: Locked<URL?>? = interceptors.isEmpty ? nil : Locked(nil)
        let send: RequestAttempts<Reply>.Send = { proposed, done in
            let attempt: URLRequest
            switch adapts ? checker.checked(proposed, built: urlRequest) : .success(proposed) {
            case .success(let checked): attempt = checked
            case .failure(let error): return done(.failure(error))
            }
            guard let taskAttempt = task.beginAttempt() else { return done(.failure(.cancelled)) }
            let number = meter.beginAttempt(
                sending: route.bodyLength.map(Int.init) ?? attempt.httpBody?.count ?? 0)
            let monitoredAttempt = monitored.map { MonitoredAttempt(of: $0, number: number) }
            if let monitors, let monitoredAttempt {
                monitors.emit {
                    $0.didBuild(attempt, for: monitoredAttempt)
                    $0.didStart(monitoredAttempt)
                }
            }
            let completion: CachingTransport.Completion = { result, cacheStatus in
                task.transportFinished()
                answeredBy?.withLock { $0 = result.response?.url }
                meter.endAttempt(
                    respondedAt: result.respondedAt,
                    // A reply from the cache received no body over the network.
                    receiving: cacheStatus.isFromCache ? 0 : result.body.count + Int(result.storedBytes))
                // Only a reply that arrived in full: not one cut off by a cancel, a timeout or the size limit.
                if let monitors, let monitoredAttempt, result.error == nil,
                    let response = result.response as? HTTPURLResponse
                {
                    monitors.emit { $0.didReceive(response, body: result.body, for: monitoredAttempt) }
                }
                done(
                    ResponseValidator.validate(
                        body: result.body, response: result.response, error: result.error,
                        expecting: expectation
                    ).map { reply in
                        var reply = reply
                        reply.cacheStatus = cacheStatus
                        reply.providedValue = result.providedValue
                        return reply
                    })
            }
            let cancel =
                caching?.send(attempt, route: route, redirectPolicy: redirectPolicy, completion: completion)
                ?? transport.send(attempt, route: route, redirectPolicy: redirectPolicy) {
                    completion($0, $0.cacheStatus)
                }
            task.attach(cancellingWith: cancel, toAttempt: taskAttempt)
        }
        let policy = request.retryPolicy ?? retryPolicy
        guard !interceptors.isEmpty || policy.retries else {
            send(urlRequest, settle)
            return task
        }
        // Interceptors may do real work (sign a body, wait for a token): never on the caller's queue,
        // usually the main queue, nor on the session's delegate queue.
        var streamProgress: (@Sendable () -> Int)?
        if let state = stream?.state { streamProgress = { state.eventCount } }
        let attempts = RequestAttempts(
            request: urlRequest, method: request.method, interceptors: interceptors, policy: policy,
            isCancelled: { task.isSettled }, usesPolicyQueue: !transport.answersInPlace,
            waitsBetweenAttempts: !transport.answersInPlace,
            attemptLimit: RequestAttempts<Reply>.attemptLimit + (stream?.reconnection.reconnectLimit ?? 0),
            progress: streamProgress, answeredBy: { answeredBy?.withLock { $0 } }, send: send, finish: settle
        )
        if let monitors, let monitored {
            attempts.onRetry = { (failed: FailedAttempt, delay: TimeInterval) in
                // The number monitors saw it built and started with: a stream's reconnections count on,
                // where the policy's count starts over after events arrived.
                let attempt = MonitoredAttempt(of: monitored, number: max(1, meter.latestAttempt))
                monitors.emit { $0.willRetry(attempt, after: delay, because: failed.error) }
            }
        }
        attempts.start()
        return task
    }

    /// The pipeline over `transport`, handlers run by `delivery`: how `DummyNetworkLayer` answers every
    /// request it is sent, by the layer's own rules.
    package func perform<Value>(
        _ request: NetworkRequest<Value>, through transport: InProcessTransport, delivery: CallbackDelivery,
        successHandler: @escaping (NetworkResponse<Value>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        perform(
            request, stream: nil, through: transport, delivery: delivery, successHandler: successHandler,
            errorHandler: errorHandler)
    }

    /// The request a body-carrying convenience method stands for, sent through the funnel.
    func sendBody<T: Encodable, R: Decodable & SendableMetatype>(
        _ method: HTTPMethod, _ urlString: String, _ body: T, _ headers: [String: String],
        _ successHandler: @escaping (NetworkResponse<R>) -> Void,
        _ errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(
            NetworkRequest(method: method, urlString: urlString, headers: headers, body: .json(body)),
            successHandler: successHandler, errorHandler: errorHandler)
    }
}

/// What makes a request a stream for ``NetworkLayer/perform(_:stream:successHandler:errorHandler:)``.
struct StreamSetup {
    /// Makes each connection's sink.
    let route: any StreamRoute
    /// Sends `Last-Event-ID` and reconnects, as the last interceptor.
    let reconnection: StreamReconnection
    /// Where the completion runs: the layer's callback queue, or an async stream's own queue.
    let callbackQueue: DispatchQueue
    let state: StreamState
}
