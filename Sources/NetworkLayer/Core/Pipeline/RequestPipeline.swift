import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkLayer {
    /// The pipeline behind ``send(_:successHandler:errorHandler:)``, as the list of its stages: a call
    /// that monitors and delivers, the request built, the reply's route, then attempts (adapt, send,
    /// validate, again while the policies ask), and the reply decoded and delivered.
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
        let call = beginCall(
            request, stream: stream, through: inProcess, delivery: delivery, errorHandler: errorHandler)
        if let refusal = call.transport.refusal {
            call.task.fail(.invalidRequest(refusal))
            return call.task
        }
        let built: URLRequest
        let route: TransportRoute
        do throws(NetworkError) {
            built = try builder.urlRequest(for: request)
            route = try self.route(for: request, stream: stream, call: call)
        } catch {
            call.task.fail(error)
            return call.task
        }
        let deliver = decodeAndDeliver(request, call: call, successHandler: successHandler)
        let caching = cachingStage(for: request, stream: stream, call: call)
        // When the policies fail for lack of a connection (a refresh offline), the account's stored reply.
        let settle =
            OfflineFallback(caching, request: built, route: route, expecting: ReplyExpectation(request))?
            .answering(deliver) ?? deliver
        let send = attemptSender(request, built: built, route: route, caching: caching, call: call)
        runAttempts(request, built: built, stream: stream, call: call, send: send, finish: settle)
        return call.task
    }

    /// The cache's stage, for a request that may use it: a stream is never stored, its events are
    /// delivered as they arrive.
    private func cachingStage<Value>(
        for request: NetworkRequest<Value>, stream: StreamSetup?, call: RequestCall
    ) -> CachingTransport? {
        guard stream == nil, let cache else { return nil }
        let accountNow = cacheAccountReader(for: request)
        return CachingTransport(
            cache: cache, policy: request.cachePolicy, transport: call.transport, account: accountNow(),
            accountNow: accountNow)
    }

    /// The call: its task (the one-shot delivery latch), what it tells monitors, its meter and its
    /// progress, and its total time limit.
    private func beginCall<Value>(
        _ request: NetworkRequest<Value>, stream: StreamSetup?, through inProcess: InProcessTransport?,
        delivery: CallbackDelivery?, errorHandler: @escaping (NetworkError) -> Void
    ) -> RequestCall {
        let meter = RequestMeter(stream: stream?.state)
        // A request's own monitors and interceptors come after the layer's.
        let monitors = MonitorGroup.forRequest(
            layer: monitorGroup, extra: request.monitors, on: monitorsQueue)?.channel()
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
        // Only a transfer reports progress: any other request's handlers keep their own queue (a stream's
        // completion stays behind its elements).
        let progress =
            request.transfer == nil
            ? nil
            : request.progressHandler.map {
                ProgressReporter(callbackQueue: callbackQueue, handler: $0)
            }
        // A transfer's handlers run on its progress queue, behind every progress call made before them;
        // an `async` form's, which only resume it, where the outcome is settled.
        let queue = progress?.queue ?? stream?.callbackQueue ?? callbackQueue
        let inPlace: (@Sendable () -> Bool)? =
            request.handlersRunInPlace && progress == nil ? { @Sendable in true } : nil
        let task = RequestTask(
            delivery: delivery ?? CallbackDelivery(queue: queue, runsInPlace: inPlace),
            failureHandler: progress.map { progress in
                {
                    progress.end()
                    errorHandler($0)
                }
            } ?? errorHandler,
            report: report, cancelWaitsForTransport: request.transfer?.isDownload == true)
        // A test double's replies come when the test says, not by the clock.
        if inProcess == nil {
            task.limitTotalTime(
                to: Self.usableLimit(request.resourceTimeout)
                    ?? (stream == nil && request.transfer == nil
                        ? Self.usableLimit(resourceTimeout) ?? Self.defaultResourceTimeout : nil))
        }
        return RequestCall(
            task: task, meter: meter, monitors: monitors, monitored: monitored, progress: progress,
            transport: inProcess ?? (stream == nil ? transport : streamTransport),
            interceptors: Self.interceptors(
                layer: interceptors + request.interceptors, reconnection: stream?.reconnection,
                retries: (request.retryPolicy ?? retryPolicy).retries))
    }

    /// The interceptors of one request: the layer's, the request's, and a stream's reconnection last. A
    /// stream that neither reconnects nor may be retried, with no other interceptor, needs none: it is
    /// sent at once, without a visit to the policy queue.
    static func interceptors(
        layer: [any RequestInterceptor], reconnection: StreamReconnection?, retries: Bool
    ) -> [any RequestInterceptor] {
        guard let reconnection, !layer.isEmpty || retries || reconnection.reconnects else { return layer }
        return layer + [reconnection]
    }

    /// A time limit as given, or `nil` for a value that can't be one (zero, negative, NaN), as for a
    /// request's timeout.
    private static func usableLimit(_ seconds: TimeInterval?) -> TimeInterval? {
        guard let seconds, seconds > 0 else { return nil }
        return seconds
    }

    /// Where the reply goes: into memory, a file, or a stream's sink.
    private func route<Value>(
        for request: NetworkRequest<Value>, stream: StreamSetup?, call: RequestCall
    ) throws(NetworkError) -> TransportRoute {
        if let stream { return .stream(stream.route) }
        // A cancelled download's task is settled while its transfer still closes the file.
        return try TransportRoute(
            request.transfer, limit: request.maximumResponseSize ?? maximumResponseSize,
            acceptableContentTypes: request.acceptableContentTypes, progress: call.progress,
            isAbandoned: { [weak task = call.task] in task?.isSettled ?? true })
    }

    /// The last stages: a validated reply decoded into `Value` and handed to the task to deliver.
    private func decodeAndDeliver<Value>(
        _ request: NetworkRequest<Value>, call: RequestCall,
        successHandler: @escaping (NetworkResponse<Value>) -> Void
    ) -> @Sendable (Result<Reply, NetworkError>) -> Void {
        let (task, meter, progress, reportsRaw) = (call.task, call.meter, call.progress, call.monitors != nil)
        let decoding = request.decoding(decoder)
        // Decoding and the success handler are not Sendable; they go from here to the one queue that
        // decodes, and the handler on to the callback queue (see UncheckedSendable).
        let finish = UncheckedSendable(value: { (reply: Reply) in
            do throws(NetworkError) {
                let value = try Self.value(of: reply, decoding: decoding)
                let response = NetworkResponse(
                    value: value, statusCode: reply.response.statusCode,
                    headers: ResponseHeaders(reply.response), url: reply.response.url, data: reply.body,
                    metrics: meter.metrics, cacheStatus: reply.cacheStatus)
                task.succeed(raw: reportsRaw ? response.map { _ in reply.body } : nil) {
                    progress?.finish()
                    successHandler(response)
                }
            } catch {
                task.fail(error)
            }
        })
        let decodesInPlace = !decoding.runsCallerCode || call.transport.answersInPlace
        return { result in
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
    }

    /// A test double's answer is used as it is when it has the type asked for, and when a reply could
    /// carry it: a HEAD or 204 reply decodes as it would from the network.
    private static func value<Value>(of reply: Reply, decoding: ResponseDecoding<Value>) throws(NetworkError)
        -> Value
    {
        // Not `providedValue?.value as? Value`: that casts a missing value to an optional `Value`.
        if let provided = reply.providedValue, !reply.cannotHaveContent, let typed = provided.value as? Value
        {
            return typed
        }
        return try decoding.decode(reply)
    }

    /// One attempt: the interceptors' request checked, sent through the cache and the transport, and
    /// its reply validated.
    private func attemptSender<Value>(
        _ request: NetworkRequest<Value>, built: URLRequest, route: TransportRoute,
        caching: CachingTransport?,
        call: RequestCall
    ) -> RequestAttempts<Reply>.Send {
        let (task, meter, monitors, monitored, transport) = (
            call.task, call.meter, call.monitors, call.monitored, call.transport
        )
        let redirectPolicy = request.redirectPolicy ?? redirectPolicy
        let checker = builder
        let adapts = !call.interceptors.isEmpty
        let expectation = ReplyExpectation(request)
        let answeredBy = call.answeredBy
        return { proposed, done in
            let attempt: URLRequest
            switch adapts ? checker.checked(proposed, built: built) : .success(proposed) {
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
                done(ResponseValidator.validate(result, cacheStatus: cacheStatus, expecting: expectation))
            }
            let cancel =
                caching?.send(attempt, route: route, redirectPolicy: redirectPolicy, completion: completion)
                ?? transport.send(attempt, route: route, redirectPolicy: redirectPolicy) {
                    completion($0, $0.cacheStatus)
                }
            task.attach(cancellingWith: cancel, toAttempt: taskAttempt)
        }
    }

    /// The policies: the first attempt sent at once when nothing may adapt or retry it, else the
    /// attempt loop (interceptors, authentication and refresh, retries).
    private func runAttempts<Value>(
        _ request: NetworkRequest<Value>, built: URLRequest, stream: StreamSetup?, call: RequestCall,
        send: @escaping RequestAttempts<Reply>.Send,
        finish: @escaping @Sendable (Result<Reply, NetworkError>) -> Void
    ) {
        let policy = request.retryPolicy ?? retryPolicy
        guard !call.interceptors.isEmpty || policy.retries else { return send(built, finish) }
        // Interceptors may do real work (sign a body, wait for a token): never on the caller's queue,
        // usually the main queue, nor on the session's delegate queue.
        let (task, meter, answeredBy) = (call.task, call.meter, call.answeredBy)
        var streamProgress: (@Sendable () -> Int)?
        if let state = stream?.state { streamProgress = { state.progress } }
        let inPlace = call.transport.answersInPlace
        let attempts = RequestAttempts(
            request: built, method: request.method, interceptors: call.interceptors, policy: policy,
            isCancelled: { task.isSettled }, usesPolicyQueue: !inPlace, waitsBetweenAttempts: !inPlace,
            attemptLimit: RequestAttempts<Reply>.attemptLimit + (stream?.reconnection.reconnectLimit ?? 0),
            longestWait: stream?.reconnection.maximumDelay,
            progress: streamProgress, answeredBy: { answeredBy?.withLock { $0 } }, send: send, finish: finish)
        if let monitors = call.monitors, let monitored = call.monitored {
            attempts.onRetry = { (failed: FailedAttempt, delay: TimeInterval) in
                // The number monitors saw it built and started with: a stream's reconnections count on,
                // where the policy's count starts over after events arrived.
                let attempt = MonitoredAttempt(of: monitored, number: max(1, meter.latestAttempt))
                monitors.emit { $0.willRetry(attempt, after: delay, because: failed.error) }
            }
        }
        attempts.start()
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

/// What the stages of one request share: made by the first, read by the rest.
struct RequestCall: Sendable {
    /// The one-shot delivery latch: exactly one handler, once.
    let task: RequestTask
    let meter: RequestMeter
    /// The monitors' channel and the request as they see it; `nil` without monitors.
    let monitors: MonitorGroup.Channel?
    let monitored: MonitoredRequest?
    let progress: ProgressReporter?
    /// An in-process transport, the streams' session or the layer's.
    let transport: any AttemptTransport
    /// The layer's, the request's, and a stream's reconnection last.
    let interceptors: [any RequestInterceptor]
    /// The URL that answered the latest attempt, for the interceptors that judge its failure.
    let answeredBy: Locked<URL?>?

    init(
        task: RequestTask, meter: RequestMeter, monitors: MonitorGroup.Channel?, monitored: MonitoredRequest?,
        progress: ProgressReporter?, transport: any AttemptTransport, interceptors: [any RequestInterceptor]
    ) {
        self.task = task
        self.meter = meter
        self.monitors = monitors
        self.monitored = monitored
        self.progress = progress
        self.transport = transport
        self.interceptors = interceptors
        answeredBy = interceptors.isEmpty ? nil : Locked(nil)
    }
}
