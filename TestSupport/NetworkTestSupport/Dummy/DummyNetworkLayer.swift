import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `NetworkLayer` for presenter tests: it sends nothing, answers from what the test stubbed, and
/// records every request exactly as the real layer would have sent it.
///
/// ```swift
/// let network = DummyNetworkLayer()
/// network.successResponse = [Employee(name: "Ann", salary: "1", age: "30")]
/// let presenter = EmployeesPresenter(view: view, networkLayer: network)
/// presenter.load()                                   // the handler has already run
/// XCTAssertEqual(view.shown?.count, 1)
/// XCTAssertEqual(network.callCount(.get, "https://api.example.com/employees"), 1)
/// ```
///
/// **Answers.** A request is answered by the most recently added per-request stub that matches it
/// (see ``stub(_:_:returning:)``), else by ``successResponse`` and ``errorResponse``:
/// - a request expecting a `T` succeeds with ``successResponse`` when its dynamic type is `T`;
///   otherwise its error handler receives ``errorResponse``; when that is `nil` too, it receives a
///   `.custom` error naming the type the caller expected and what was stubbed, because a stub of the
///   wrong type is a bug in the test. So when both are set, a ``successResponse`` of the right type wins.
/// - a request with a `() -> Void` success handler, or one expecting `EmptyResponse` (which the real
///   layer decodes from any reply), fails with ``errorResponse`` when it is set and succeeds
///   otherwise; ``successResponse`` plays no part.
/// - a stubbed `Data` answers a request expecting another type the way the real layer would: decoded
///   as JSON with the layer's `decoder` (a fixture file's bytes work), or `.decodingFailed`.
/// - the `NetworkResponse` forms get status 200 and no headers, unless the stub gives them
///   (``stub(_:_:returning:statusCode:headers:)``); their `url` is the recorded request's, their `data`
///   the stubbed bytes when the stub was `Data`.
///
/// **Downloads and uploads.** A download is answered with a stubbed `Data` (or the URL of a file),
/// which the dummy writes to the destination before the success handler receives it; a destination the
/// real layer would refuse (a file already there without `.replaceExisting`, a missing folder) and an
/// upload of a missing file are refused as the real layer refuses them, before anything is recorded.
/// An upload is recorded with what it would send (``RecordedRequest/upload``: bytes, file or form) and
/// answered like any request. Progress handlers get ``scriptedProgress``, or one call with every byte
/// before a success.
///
/// **Delivery.** The handler runs synchronously, before the request method returns, so a test asserts
/// right after the call. Set ``deliveryQueue`` to deliver asynchronously on a queue instead, or
/// ``holdsReplies`` to keep each request in ``pendingRequests`` until the test releases it (to see a
/// loading state). When an interceptor or a token refresh completes later instead of in place, the
/// answer can't be synchronous: it is delivered on `callbackQueue` (the main queue unless `init` was given
/// a delivery queue), as the real layer delivers, never on the thread the interceptor completed on; wait
/// for it with an expectation. `cancelAll()` cancels every request whose handler has not run yet (held,
/// or scheduled on the delivery queue), as each task's `cancel()` would. The `async` forms of `NetworkLayer` go through the same funnel, so the dummy answers
/// them the same way.
///
/// **Recording.** Every request is built by the real layer's own request builder and appended to
/// ``recordedRequests``: full URL with its query, headers with the default headers merged in, and the
/// body bytes as the real layer encodes them. A request the real layer would refuse to send (invalid
/// URL, unencodable body, invalid header, including an invalid default header) is not recorded there:
/// it goes to ``refusedRequests``, and its error handler receives the same error the real layer gives
/// (`.invalidURL`, `.encodingFailed`, `.invalidHeader`). Recording is thread-safe.
///
/// **Monitors.** Monitors passed to the initialiser are told about every request as the real layer
/// tells them, on their own queue: each attempt built and started, its stubbed answer as a response,
/// retries, and the outcome the handler receives, with metrics (which the `NetworkResponse` forms carry
/// too). A refused request has only its `didFinish`.
///
/// The dummy creates no `URLSession` of its own and never sends on the shared one.
open class DummyNetworkLayer: NetworkLayer, @unchecked Sendable {
    let state: DummyStateLock

    /// Creates a dummy layer.
    ///
    /// - Parameters:
    ///   - baseURL: Resolves relative URL strings of requests and stubs, by the real layer's rule.
    ///   - defaultHeaders: Merged into every recorded request's headers, as the real layer sends them.
    ///   - encoder: Encodes request bodies for the recordings, as the real layer would.
    ///   - decoder: Decodes stubbed `Data` for requests that expect another type, as the real layer would.
    ///   - deliveryQueue: `nil` runs handlers synchronously; a queue runs them asynchronously on it.
    ///   - retryPolicy: Replays failed answers as the real layer would, at once instead of after a wait.
    ///   - interceptors: Adapt every recorded request and decide about failed answers, as in the real
    ///     layer (in place: a token refresh that completes synchronously keeps the answer synchronous; one
    ///     that completes later has the answer delivered on `callbackQueue`).
    ///   - monitors: Told about every request as the real layer tells them (built, started, the stubbed
    ///     answer as a response, retries, and the outcome with metrics), on their own queue, so an app's
    ///     logging or analytics hook is testable without a network. The events arrive asynchronously:
    ///     wait for `didFinish` before asserting on them.
    public init(
        baseURL: URL? = nil,
        defaultHeaders: [String: String] = [:],
        encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder(),
        deliveryQueue: DispatchQueue? = nil,
        retryPolicy: RetryPolicy = .none,
        interceptors: [any RequestInterceptor] = [],
        monitors: [any NetworkMonitor] = []
    ) {
        state = DummyStateLock(DummyState(deliveryQueue: deliveryQueue))
        super.init(
            baseURL: baseURL, defaultHeaders: defaultHeaders, encoder: encoder, decoder: decoder,
            callbackQueue: deliveryQueue ?? .main, retryPolicy: retryPolicy, interceptors: interceptors,
            monitors: monitors)
    }

    /// Creates a dummy layer for an API environment: its base URL and headers, as the real layer's
    /// `init(environment:)` uses them.
    ///
    /// - Parameters:
    ///   - environment: The base URL and default headers.
    ///   - encoder: The app's encoder, so recorded bodies are what the app sends (a snake_case
    ///     encoder records snake_case keys).
    ///   - decoder: The app's decoder, for stubbed `Data` and fixture files.
    ///   - deliveryQueue: `nil` runs handlers synchronously; a queue runs them asynchronously on it.
    ///   - retryPolicy: As in ``init(baseURL:defaultHeaders:encoder:decoder:deliveryQueue:retryPolicy:interceptors:monitors:)``.
    ///   - interceptors: As there.
    ///   - monitors: Told about every request, as the real layer's monitors are.
    public convenience init(
        environment: APIEnvironment,
        encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder(),
        deliveryQueue: DispatchQueue? = nil,
        retryPolicy: RetryPolicy = .none,
        interceptors: [any RequestInterceptor] = [],
        monitors: [any NetworkMonitor] = []
    ) {
        self.init(
            baseURL: environment.baseURL, defaultHeaders: environment.headers, encoder: encoder,
            decoder: decoder, deliveryQueue: deliveryQueue, retryPolicy: retryPolicy,
            interceptors: interceptors, monitors: monitors)
    }

    // MARK: - The funnel
    //
    // Every request method of `NetworkLayer` (convenience methods, endpoints, and whatever entry points
    // come later) builds a `NetworkRequest` and calls `send`; overriding it answers them all.

    /// Records the request exactly as the real layer would send it and answers it from the stubs,
    /// without sending anything; see ``DummyNetworkLayer`` for how it is answered.
    ///
    /// - Parameters:
    ///   - request: What the code under test sends, and what the reply becomes.
    ///   - successHandler: Receives the stubbed answer; before `send` returns unless ``deliveryQueue`` or
    ///     ``holdsReplies`` is set.
    ///   - errorHandler: Receives the stubbed or refused request's error, or `.cancelled`.
    /// - Returns: The request's task; cancelling it before the answer delivers `.cancelled`.
    @discardableResult
    open override func send<Value>(
        _ request: NetworkRequest<Value>,
        successHandler: @escaping (NetworkResponse<Value>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        // As the real layer's `send`: `cancelAll()` reaches every request whose handler has not run.
        runningRequests.track(successHandler: successHandler, errorHandler: errorHandler) {
            answerFromStubs(request, successHandler: $0, errorHandler: $1)
        }
    }

    /// Streams from the dummy's answers: the request goes through ``send(_:successHandler:errorHandler:)``
    /// like any other (recorded, stubbed, held, intercepted, monitored), and the `Data` it is answered
    /// with is the stream's body, parsed by the format's real parser: each element goes to
    /// `eventHandler`, then the completion runs. A held stream is fed one piece at a time with
    /// ``DummyPendingRequest/push(_:)-(Data)`` and ended with ``DummyPendingRequest/finishStream()`` or
    /// ``DummyPendingRequest/fail(with:)``. See <doc:TestingPresenters>.
    ///
    /// - Parameters:
    ///   - request: The request; recorded as the real layer would send it.
    ///   - format: How the scripted body becomes elements.
    ///   - options: The stream's options; its maximum event size applies.
    ///   - eventHandler: Receives each element, where the dummy delivers (see ``deliveryQueue``).
    ///   - completionHandler: Receives how the stream ended, once, after the last element.
    /// - Returns: The stream's task, which can be cancelled.
    @discardableResult
    open override func stream<Element>(
        _ request: NetworkRequest<Data>, as format: StreamFormat<Element>,
        options: ServerSentEventsOptions? = nil,
        eventHandler: @escaping (Element) -> Void,
        completionHandler: @escaping (Result<StreamSummary, NetworkError>) -> Void
    ) -> NetworkTask {
        answerStream(
            request, as: format, options: options, eventHandler: eventHandler,
            completionHandler: completionHandler)
    }

    private func answerFromStubs<Value>(
        _ request: NetworkRequest<Value>,
        successHandler: @escaping (NetworkResponse<Value>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        if let endpoint = request.endpoint { state.withLock { $0.endpoints.append(endpoint) } }
        let built: URLRequest
        do throws(NetworkError) {
            built = try builder.urlRequest(for: request)
        } catch {
            // Refused requests are never held: they fail at once, as the real layer's do.
            let refused = RefusedRequest(method: request.method, urlString: request.urlString, error: error)
            state.withLock { $0.refused.append(refused) }
            let task = DummyTask(request: nil, errorHandler: errorHandler) { _ in }
            // As the real layer: the monitors hear of the refusal, without an attempt.
            let monitors = DummyMonitoring(
                MonitorGroup.forRequest(layer: monitorGroup, extra: request.monitors), method: request.method,
                url: try? builder.url(for: request))
            var report: ((Result<NetworkResponse<Value>, NetworkError>) -> Void)?
            if let monitors {
                let metrics = monitors.metrics
                report = { monitors.finished($0, metrics: metrics) }
            }
            task.deliver(.failure(error), to: successHandler, on: deliveryQueue, report: report)
            return task
        }
        let first = RecordedRequest(built, transfer: request.transfer)
        let task = DummyTask(request: first, errorHandler: errorHandler) { [weak self] task in
            self?.state.withLock { state in
                state.cancelled.append(first)
                state.pending.removeAll { $0.task === task }
            }
        }
        let expected = DummyExpectation.value(Value.self, from: request, decoder: decoder)
        let held = heldRequest(first, task: task, expected: expected, successHandler: successHandler)
        // Recording and the choice between holding and answering are one step, so a request is held
        // exactly when `holdsReplies` was set at the moment it was recorded.
        let isHeld: Bool = state.withLock { state in
            guard state.holdsReplies else { return false }
            state.recorded.append(first)
            task.hold(deliveringOn: state.deliveryQueue)
            state.pending.append(held)
            return true
        }
        if isHeld { return task }
        // A request's own monitors and interceptors come after the layer's, as in the real layer.
        let monitorGroup = MonitorGroup.forRequest(layer: monitorGroup, extra: request.monitors)
        let interceptors = interceptors + request.interceptors
        let monitors = DummyMonitoring(monitorGroup, method: request.method, url: built.url)
        let answer = { [state] (attempt: URLRequest) -> Result<NetworkResponse<Value>, NetworkError> in
            let recorded = RecordedRequest(attempt, transfer: request.transfer)
            let number = monitors?.willSend(attempt)
            let result = state.withLock { $0.record(recorded) }.result(for: recorded, expecting: expected)
            if let number { monitors?.answered(result, attempt: number) }
            return result
        }
        let configuredQueue = deliveryQueue
        let callbackQueue = callbackQueue
        let window = DummyCallWindow()
        defer { window.close() }
        let progress = DummyProgress(request, script: state.withLock { $0.scriptedProgress })
        let deliver = { (result: Result<NetworkResponse<Value>, NetworkError>) in
            // An interceptor or a token refresh that completed later, elsewhere, must not have the handler
            // run on its thread: the real layer always delivers on its callback queue.
            let deliveryQueue = configuredQueue ?? (window.isInsideCall ? nil : callbackQueue)
            progress?.report(before: result, on: deliveryQueue)
            guard let monitors else { return task.deliver(result, to: successHandler, on: deliveryQueue) }
            // The handler and the monitors see the same metrics; the monitors see the outcome the handler
            // gets, `.cancelled` included.
            let metrics = monitors.metrics
            task.deliver(
                result.map { $0.withMetrics(metrics) }, to: successHandler, on: deliveryQueue,
                report: { monitors.finished($0, metrics: metrics) })
        }
        let policy = request.retryPolicy ?? retryPolicy
        guard !interceptors.isEmpty || policy.retries else {
            deliver(answer(built))
            return task
        }
        // The real layer's policy stage, on the dummy's answers: interceptors adapt what is recorded, and
        // a stubbed sequence (401, then 200) plays out across retries, at once rather than after a wait.
        let attempts = RequestAttempts<NetworkResponse<Value>>(
            request: built, method: request.method, interceptors: interceptors, policy: policy,
            isCancelled: { task.isCancelled }, usesPolicyQueue: false, waitsBetweenAttempts: false,
            send: { attempt, done in done(answer(attempt)) },
            finish: deliver)
        if let monitors {
            attempts.onRetry = { (failed: FailedAttempt, delay: TimeInterval) in
                monitors.willRetry(failed, after: delay)
            }
        }
        attempts.start()
        return task
    }
}
