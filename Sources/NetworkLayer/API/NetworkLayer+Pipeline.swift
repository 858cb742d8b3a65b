import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkLayer {
    /// The pipeline: the call begun, the request built and passed down the stages
    /// (``stages(for:built:route:expecting:stream:call:)``), the reply validated, decoded and delivered. A
    /// `stream` takes the reply as it arrives, on the streams' session. With a ``responder`` (a test
    /// double) each request is answered in process and handlers run where it says.
    ///
    /// - Parameter returned: Set to what runs once the request method has returned, for an in-process call.
    func startCall<Value>(
        _ request: NetworkRequest<Value>, stream: StreamSetup? = nil, returned: inout (() -> Void)?,
        successHandler: @escaping (NetworkResponse<Value>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        var request = request
        // The layer's default: only for a reply kept in memory, which is the API's type.
        if request.acceptableContentTypes == nil, request.transfer == nil, stream == nil {
            request.acceptableContentTypes = settings.configuration.acceptableContentTypes
        }
        // A resumable upload's exchanges (creation, HEAD, PATCH) each come back through `send`; a test
        // double answers it as the plain upload of its file.
        if request.resumable != nil, stream == nil, responder == nil {
            return ResumableUploadTask.start(
                request, on: self, successHandler: successHandler, errorHandler: errorHandler)
        }
        guard stream == nil, let inProcess = responder?.call(for: request, on: self) else {
            return startCall(
                request, stream: stream, transport: stream == nil ? requestSession : streamSession,
                delivery: nil, successHandler: successHandler, errorHandler: errorHandler)
        }
        let task = startCall(
            request, stream: nil, transport: InProcessTransport(clock: clock, answer: inProcess.answer),
            delivery: inProcess.delivery, successHandler: successHandler, errorHandler: errorHandler)
        returned = inProcess.returned
        return inProcess.started(task)
    }

    private func startCall<Value>(
        _ request: NetworkRequest<Value>, stream: StreamSetup?, transport: any AttemptTransport,
        delivery: CallbackDelivery?,
        successHandler: @escaping (NetworkResponse<Value>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        let (call, progress) = beginCall(
            request, stream: stream, delivery: delivery, errorHandler: errorHandler)
        if let refusal = transport.refusal {
            call.task.fail(.invalidRequest(refusal))
            return call.task
        }
        let built: URLRequest
        let route: TransportRoute
        do throws(NetworkError) {
            built = try builder.urlRequest(for: request)
            route = try self.route(for: request, stream: stream, call: call, progress: progress)
        } catch {
            call.task.fail(error)
            return call.task
        }
        let expectation = ReplyExpectation(request)
        let chain = RequestChain(
            stages: stages(
                for: request, built: built, route: route, expecting: expectation, stream: stream, call: call)[
                    ...],
            transport: transport, route: route,
            redirectPolicy: redirectPolicy(for: request), watchesPauses: pauseWatch())
        // Not kept: the call's task cancels each attempt as it begins (see ``AttemptStage``).
        _ = chain.proceed(
            built,
            completion: decodeAndDeliver(
                request, expecting: expectation, call: call, progress: progress,
                successHandler: successHandler))
        return call.task
    }

    /// The call: its task (the one-shot delivery latch and meter), monitors, progress and total time limit.
    private func beginCall<Value>(
        _ request: NetworkRequest<Value>, stream: StreamSetup?, delivery: CallbackDelivery?,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> (RequestCall, ProgressReporter?) {
        var eventCount: (@Sendable () -> Int)?
        if let state = stream?.state { eventCount = { state.eventCount } }
        // A layer without monitors runs none of their code.
        let watch = monitorGroup == nil && request.monitors.isEmpty ? nil : monitoring(request)
        let progress = progressReporter(for: request, observer: watch?.observer)
        // A transfer's handlers run on its progress queue, behind every progress call made before them,
        // and a stream's completion behind its elements; any other call's where its outcome is settled
        // when it delivers immediately.
        let queue =
            (request.progressHandler == nil ? nil : progress?.queue) ?? stream?.callbackQueue ?? callbackQueue
        let immediate = deliversImmediately(request, isStream: stream != nil)
        let delivery = delivery ?? (immediate ? .immediate : CallbackDelivery(queue: queue))
        let task = RequestTask(
            delivery: delivery,
            failureHandler: progress.map { progress in
                {
                    progress.end()
                    errorHandler($0)
                }
            } ?? errorHandler,
            report: watch?.report, cancelWaitsForTransport: request.transfer?.isDownload == true,
            priority: request.priority, clock: clock, eventCount: eventCount)
        task.limitTotalTime(to: totalTimeLimit(for: request, isStream: stream != nil), on: clock)
        let call = RequestCall(
            task: task, observer: watch?.observer, deliversImmediately: delivery.isImmediate)
        return (call, progress)
    }

    /// Only a transfer reports progress: any other request's handlers keep their own queue (a stream's
    /// completion stays behind its elements). A transfer is counted for its progress handler and for
    /// monitors that observe attempts (on their queue, without a handler); for neither, it isn't.
    func progressReporter<Value>(for request: NetworkRequest<Value>, observer: MonitoredCall?)
        -> ProgressReporter?
    {
        guard let transfer = request.transfer else { return nil }
        var told: (@Sendable (TransferProgress) -> Void)?
        if let observer, observer.channel.observesAttempts {
            let isUpload = !transfer.isDownload
            told = { observer.transferred($0, isUpload: isUpload) }
        }
        guard request.progressHandler != nil || told != nil else { return nil }
        return ProgressReporter(
            callbackQueue: request.progressHandler == nil ? monitorsQueue : callbackQueue, clock: clock,
            handler: request.progressHandler, observer: told)
    }

    /// What monitors a call: the report of its outcome, and who watches its attempts; `nil` when no
    /// monitor is left.
    private func monitoring<Value>(_ request: NetworkRequest<Value>) -> (
        report: @Sendable (Result<NetworkResponse<Data>, NetworkError>, RequestMetrics) -> Void,
        observer: MonitoredCall
    )? {
        guard let monitors = monitorGroup(for: request)?.channel() else { return nil }
        let monitored = MonitoredRequest(
            request, url: try? builder.url(for: request), credentialHeaders: credentialHeaders(for: request),
            account: cacheAccountReader(for: request)())
        monitors.emit { $0.didCreate(monitored) }
        let report = {
            @Sendable (result: Result<NetworkResponse<Data>, NetworkError>, metrics: RequestMetrics) in
            monitors.finish { $0.didFinish(monitored, with: result, metrics: metrics) }
        }
        return (report, MonitoredCall(channel: monitors, request: monitored))
    }

    /// The monitors of a request: the layer's, then the request's own; `nil` for none.
    func monitorGroup<Value>(for request: NetworkRequest<Value>) -> MonitorGroup? {
        request.monitors.isEmpty
            ? monitorGroup : MonitorGroup(layer: monitorGroup, adding: request.monitors, on: monitorsQueue)
    }

    /// Whether a call's outcome is delivered where it is settled (the layer or the request asks for it) rather
    /// than on its queue: never for a transfer that reports progress or a stream, whose outcome waits behind
    /// every progress call or element already queued. One rule for a request and for a call composed of
    /// several (``ComposedCall``).
    func deliversImmediately<Value>(_ request: NetworkRequest<Value>, isStream: Bool) -> Bool {
        (deliversImmediately || request.deliversImmediately) && !isStream
            && (request.transfer == nil || request.progressHandler == nil)
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

    /// A call's total time limit (see ``RequestTask/limitTotalTime(to:on:)``), for a request and for a
    /// call composed of several (``ComposedCall``): the request's `resourceTimeout` when usable; else, for
    /// an ordinary request, the layer's (or the default); a stream or a transfer has only its own.
    func totalTimeLimit<Value>(for request: NetworkRequest<Value>, isStream: Bool) -> TimeInterval? {
        Self.usableLimit(request.resourceTimeout)
            ?? (!isStream && request.transfer == nil
                ? Self.usableLimit(resourceTimeout) ?? Self.defaultResourceTimeout : nil)
    }

    /// `nil` for a value that can't be a time limit (zero, negative, NaN), as for a request's timeout.
    private static func usableLimit(_ seconds: TimeInterval?) -> TimeInterval? {
        guard let seconds, seconds > 0 else { return nil }
        return seconds
    }

    private func route<Value>(
        for request: NetworkRequest<Value>, stream: StreamSetup?, call: RequestCall,
        progress: ProgressReporter?
    ) throws(NetworkError) -> TransportRoute {
        if let stream { return .sink(stream.route) }
        let limit = request.maximumResponseSize ?? maximumResponseSize
        // Any other request's reply is kept in memory by the engine itself.
        guard let transfer = request.transfer else { return .data(limit: limit) }
        // A cancelled download's task is settled while its transfer still closes the file.
        return try TransportRoute(
            transfer, limit: limit, acceptableContentTypes: request.acceptableContentTypes,
            progress: progress,
            isAbandoned: { [weak task = call.task] in task?.isSettled ?? true })
    }

    /// The end of the chain: the reply validated, decoded into `Value` and handed to the task to deliver.
    private func decodeAndDeliver<Value>(
        _ request: NetworkRequest<Value>, expecting expectation: ReplyExpectation, call: RequestCall,
        progress: ProgressReporter?, successHandler: @escaping (NetworkResponse<Value>) -> Void
    ) -> @Sendable (TransferResult) -> Void {
        let (task, reportsRaw) = (call.task, call.observer != nil)
        let decoding = request.decoding(decoder)
        // Decoding and the success handler are not Sendable; they go from here to the one queue that
        // decodes, and the handler on to the callback queue (see UncheckedSendable).
        let finish = UncheckedSendable(value: { (reply: Reply) in
            do throws(NetworkError) {
                let value = try Self.value(of: reply, decoding: decoding)
                let response = NetworkResponse(
                    value: value, statusCode: reply.response.statusCode,
                    headers: reply.headers ?? ResponseHeaders(reply.response), url: reply.response.url,
                    data: reply.body,
                    metrics: task.metrics, cacheStatus: reply.cacheStatus)
                task.succeed(raw: reportsRaw ? response.map { _ in reply.body } : nil) {
                    progress?.finish()
                    successHandler(response)
                }
            } catch {
                task.fail(error)
            }
        })
        let (runsCallerCode, immediate) = (decoding.runsCallerCode, call.deliversImmediately)
        return { result in
            if reportsRaw || result.cacheReason == .offline { task.replyArrived(result) }
            switch ResponseValidator.validate(result, expecting: expectation) {
            case .failure(let error):
                task.fail(error)
            case .success(let reply) where !runsCallerCode || (immediate && !Queues.isReserved):
                finish.value(reply)
            case .success(let reply):
                // Off the session's serial delegate queue: a slow `Decodable` must not hold up every other
                // request on the session.
                Queues.work.async { finish.value(reply) }
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
}

/// What makes a request a stream.
struct StreamSetup {
    /// Makes each connection's sink, whatever the stream's elements are.
    let route: any SinkRoute
    /// Sends `Last-Event-ID` and reconnects, as the last interceptor.
    let reconnection: StreamReconnection
    /// Where the completion runs: the layer's callback queue, or an async stream's own queue.
    let callbackQueue: DispatchQueue
    let state: StreamState
}
