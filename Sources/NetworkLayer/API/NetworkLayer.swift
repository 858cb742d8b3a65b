import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A small HTTP client for JSON APIs, with success and error handlers.
///
/// Every request ends in exactly one call of exactly one handler, on ``callbackQueue`` (the main queue
/// by default), never synchronously inside the method that started it, unless the caller chose
/// immediate delivery (``deliversImmediately``).
///
/// ```swift
/// let network = NetworkLayer(baseURL: URL(string: "https://api.example.com/v1"))
/// network.get(urlString: "employees",
///             successHandler: { (employees: [Employee]) in print(employees.count) },
///             errorHandler: { error in print(error.message) })
/// ```
///
/// The class is open so that test doubles such as `DummyNetworkLayer` can stand in for it. Only
/// ``send(_:successHandler:errorHandler:)`` and ``stream(_:as:options:eventHandler:completionHandler:)``
/// can be overridden: every other request method builds a ``NetworkRequest`` and calls one of them, so a
/// subclass sees every request and none can bypass the funnel. Its state
/// is immutable after `init`, so one instance can be used from any thread; that is why it is
/// `Sendable`. A subclass must keep that promise: guard any state it adds with a lock. Don't change the
/// `encoder` or `decoder` after creating the layer: they are used from background queues.
open class NetworkLayer: @unchecked Sendable {
    /// The URL that relative URL strings are resolved against.
    public let baseURL: URL?
    /// Headers sent with every request; a request's own headers override them. Those that carry
    /// credentials go only to the base URL's origin (see `init`).
    public let defaultHeaders: [String: String]
    /// Encodes JSON request bodies.
    public let encoder: JSONEncoder
    /// Decodes JSON replies.
    public let decoder: JSONDecoder
    /// The queue every handler runs on, unless the layer ``deliversImmediately``.
    public let callbackQueue: DispatchQueue
    /// Whether handlers run immediately, where each outcome is settled, instead of on ``callbackQueue``:
    /// decoding, interceptors and handlers then run on the thread that settled it (the one that cancels,
    /// a transport's completion, an interceptor's completion), with no hop to another queue; never on a
    /// session's own delegate queue, which they leave for a background queue first. With a transport
    /// that answers in place (a test double's), the handler runs before the request method returns. A
    /// download or upload with a ``NetworkRequest/progressHandler`` still runs its handlers on its
    /// progress queue, behind its last progress call, and a stream its completion behind its events.
    /// `false` by default. See <doc:ErrorsAndThreading>.
    public let deliversImmediately: Bool
    /// How long a request may wait for data, in seconds.
    public let timeout: TimeInterval
    /// How long a request kept in memory may take in all, retries and waits included: a server that
    /// trickles bytes never lets ``timeout`` pass, so this ends it with ``NetworkError/timedOut``.
    /// Downloads, uploads and streams have none unless they set ``NetworkRequest/resourceTimeout``.
    /// Zero, negative and NaN mean ``defaultResourceTimeout``; `.infinity` means no limit.
    public let resourceTimeout: TimeInterval
    /// The most bytes a reply's body may have after gzip inflation; a larger one stops as soon as that is
    /// known, with ``NetworkError/transport(_:)`` carrying `URLError(.dataLengthExceedsMaximum)`.
    public let maximumResponseSize: Int

    /// Which redirects are followed, and what goes along to another origin.
    public let redirectPolicy: RedirectPolicy
    /// When a failed request is sent again; a request or endpoint may override it.
    public let retryPolicy: RetryPolicy
    /// The stages that adapt every attempt and may ask for another after a failure, in order.
    public let interceptors: [any RequestInterceptor]
    /// What watches every request, in order; see ``NetworkMonitor``.
    public let monitors: [any NetworkMonitor]
    /// The layer's HTTP cache (it replaces `URLCache` on every platform), or `nil` when caching is off.
    public let cache: ResponseCache?
    let accountName = Locked<String?>(nil)
    package let monitorGroup: MonitorGroup?
    package let monitorsQueue = MonitorGroup.makeQueue()
    /// What every time-based decision of the layer reads and schedules through, passed down to each
    /// request: its deadlines, waits, progress throttle, metrics and cache ages (see ``NetworkClock``).
    package let clock: any NetworkClock
    /// The deadlines of the policy stage on ``clock``: interceptor and refresh limits, total time limits.
    let policyDeadlines: DeadlineRegistry
    /// The requests started and not yet answered, for ``cancelAll()``.
    package let runningRequests = RunningRequests()
    /// What answers every request in process instead of a session (a test double); `nil` sends them.
    let responder: (any InProcessResponder)?

    /// The default ``maximumResponseSize``: 50 MiB.
    public static let defaultMaximumResponseSize = 50 * 1024 * 1024

    /// The default ``resourceTimeout``: five minutes, generous for any reply kept in memory, yet finite.
    public static let defaultResourceTimeout: TimeInterval = 300

    package let builder: RequestBuilder
    /// `nil` means the shared session. A request whose later attempts may start after the layer has gone
    /// keeps it too (see `SessionTransport`).
    private let ownTransport: SessionTransport?

    /// Resolves the shared session lazily, so a test double that never sends creates none.
    var transport: SessionTransport { ownTransport ?? .shared }

    /// The idle deadlines of this layer's requests on ``transport``, on ``clock``. On the shared session
    /// they sweep its delegate queue without creating the session before a request does.
    let transferDeadlines: DeadlineRegistry

    /// ``transport`` as this layer sends on it.
    var requestSession: LayerSession { LayerSession(transport, deadlines: transferDeadlines) }

    /// Whether uploads go out as an upload task's file or bytes (Apple platforms) rather than as the
    /// layer's body stream; see ``PlatformSession/sendsUploadsNatively``. Only a layer with a session of
    /// its own can change it: a stub transport, whose URLProtocol must see the body, or a test of the
    /// native form on Linux.
    package var sendsUploadsNatively: Bool {
        get { transport.sendsUploadsNatively }
        set { ownTransport?.sendsUploadsNatively = newValue }
    }

    /// Keeps what answers the layer's sessions in process (a stub transport) alive as long as they are.
    package func keepAlive(_ dependency: any Sendable) {
        ownTransport?.dependencies.withLock { $0.append(dependency) }
        ownStreamTransport.withLock { $0 }?.session.dependencies.withLock { $0.append(dependency) }
    }

    private let sessionConfiguration: URLSessionConfiguration?
    private let ownStreamTransport = Locked<LayerSession?>(nil)
    /// The idle deadlines of this layer's streams on the shared streams' session, on ``clock``.
    private let sharedStreamDeadlines: DeadlineRegistry

    /// The session streams go out on, apart from ordinary requests: a stream whose consumer is behind
    /// holds back its session's connections on Linux (see ``BackPressureQueue/pauseReading(_:)``),
    /// and must never hold back an ordinary request. Made by the first stream.
    var streamTransport: SessionTransport { streamSession.session }

    /// ``streamTransport`` as this layer sends on it.
    var streamSession: LayerSession {
        guard let sessionConfiguration else {
            return LayerSession(.sharedStreams, deadlines: sharedStreamDeadlines)
        }
        return ownStreamTransport.withLock { session in
            if let session { return session }
            let made = SessionTransport(configuration: sessionConfiguration)
            let dependencies = ownTransport?.dependencies.withLock { $0 } ?? []
            made.dependencies.withLock { $0 = dependencies }
            let layerSession = LayerSession(made, clock: clock)
            session = layerSession
            return layerSession
        }
    }

    /// Creates a layer.
    ///
    /// - Parameters:
    ///   - baseURL: Resolves relative URL strings: `users` and `/users` against `https://api.example.com/v1`
    ///     both give `https://api.example.com/v1/users`.
    ///   - defaultHeaders: Headers for every request; a request's own override them. Credential headers
    ///     (`Authorization`, `Cookie`, `X-Api-Key`, ... and ``RedirectPolicy/credentialHeaders``) go only
    ///     to the base URL's origin (without one, the first request's), as on a redirect.
    ///   - sessionConfiguration: `nil` shares one long-lived session among all layers (what an app wants);
    ///     with one, the layer owns a session (to inject `protocolClasses`, change caching or cookies).
    ///   - encoder: Encodes JSON bodies.
    ///   - decoder: Decodes JSON replies.
    ///   - callbackQueue: Where handlers run. Keep `.main` when handlers are main-actor code (in a
    ///     MainActor-default module every plain closure is); with another queue, write them `@Sendable`
    ///     or use the `async` forms (see <doc:MainActorDefaultModules>).
    ///   - deliversImmediately: `true` runs handlers where each outcome is settled instead of on
    ///     `callbackQueue`; see ``deliversImmediately``.
    ///   - timeout: Seconds a request may wait for data before it fails with ``NetworkError/timedOut``.
    ///     Fractions count: 0.5 waits half a second.
    ///   - resourceTimeout: Seconds a request may take in all, retries included; see
    ///     ``resourceTimeout``.
    ///   - maximumResponseSize: The most bytes a reply may have; see ``maximumResponseSize``.
    ///   - redirectPolicy: Which redirects to follow; the default never downgrades to http and sends none
    ///     of the caller's headers to another origin.
    ///   - retryPolicy: When a failed request is sent again; ``RetryPolicy/none`` by default.
    ///   - interceptors: Stages that adapt each attempt and may ask for another, in order; see
    ///     ``RequestInterceptor``.
    ///   - monitors: What watches every request, in order, on a queue of their own; see ``NetworkMonitor``.
    ///   - cache: Where `GET` replies are kept (RFC 9111); by default a 4 MB memory-only cache, `nil` for
    ///     none. See <doc:CachingAndOffline>.
    public init(
        baseURL: URL? = nil,
        defaultHeaders: [String: String] = [:],
        sessionConfiguration: URLSessionConfiguration? = nil,
        encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder(),
        callbackQueue: DispatchQueue = .main,
        deliversImmediately: Bool = false,
        timeout: TimeInterval = 60,
        resourceTimeout: TimeInterval = NetworkLayer.defaultResourceTimeout,
        maximumResponseSize: Int = NetworkLayer.defaultMaximumResponseSize,
        redirectPolicy: RedirectPolicy = .default,
        retryPolicy: RetryPolicy = .none,
        interceptors: [any RequestInterceptor] = [],
        monitors: [any NetworkMonitor] = [],
        cache: ResponseCache? = ResponseCache()
    ) {
        clock = SystemClock()
        responder = nil
        self.cache = cache
        self.monitors = monitors
        monitorGroup = MonitorGroup(monitors, on: monitorsQueue)
        self.retryPolicy = retryPolicy
        self.interceptors = interceptors
        policyDeadlines = DeadlineRegistry(clock: self.clock)
        // A token authenticator made without origins sends its token to this layer's origin only.
        for case let authenticator as BearerTokenAuthenticator in interceptors {
            authenticator.adoptOrigin(of: baseURL)
            authenticator.adoptCache(cache)
            authenticator.adoptDeadlines(policyDeadlines)
        }
        self.maximumResponseSize = maximumResponseSize
        self.redirectPolicy = redirectPolicy
        self.baseURL = baseURL
        self.defaultHeaders = defaultHeaders
        self.encoder = encoder
        self.decoder = decoder
        self.callbackQueue = callbackQueue
        self.deliversImmediately = deliversImmediately
        self.timeout = timeout
        self.resourceTimeout = resourceTimeout
        builder = RequestBuilder(
            resolver: URLResolver(baseURL: baseURL), defaultHeaders: defaultHeaders,
            credentialHeaders: redirectPolicy.credentialHeaders, encoder: encoder, timeout: timeout)
        let ownTransport = sessionConfiguration.map { SessionTransport(configuration: $0) }
        self.ownTransport = ownTransport
        transferDeadlines =
            ownTransport.map { [clock = self.clock] in LayerSession($0, clock: clock).deadlines }
            ?? DeadlineRegistry(clock: self.clock) { SessionTransport.shared.delegateQueue.enqueue($0) }
        sharedStreamDeadlines = DeadlineRegistry(clock: self.clock) {
            SessionTransport.sharedStreams.delegateQueue.enqueue($0)
        }
        self.sessionConfiguration = sessionConfiguration?.copy() as? URLSessionConfiguration
    }

    /// A layer on `clock`, which every time-based decision of the layer reads and schedules through
    /// (see ``NetworkClock``); the public initializer's layer is on a ``SystemClock`` of its own. With a
    /// `responder`, every request is answered in process by it instead of a session. The other
    /// parameters are the public initializer's.
    package init(
        clock: any NetworkClock,
        responder: (any InProcessResponder)? = nil,
        baseURL: URL? = nil,
        defaultHeaders: [String: String] = [:],
        sessionConfiguration: URLSessionConfiguration? = nil,
        encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder(),
        callbackQueue: DispatchQueue = .main,
        deliversImmediately: Bool = false,
        timeout: TimeInterval = 60,
        resourceTimeout: TimeInterval = NetworkLayer.defaultResourceTimeout,
        maximumResponseSize: Int = NetworkLayer.defaultMaximumResponseSize,
        redirectPolicy: RedirectPolicy = .default,
        retryPolicy: RetryPolicy = .none,
        interceptors: [any RequestInterceptor] = [],
        monitors: [any NetworkMonitor] = [],
        cache: ResponseCache? = ResponseCache()
    ) {
        self.clock = clock
        self.responder = responder
        self.cache = cache
        self.monitors = monitors
        monitorGroup = MonitorGroup(monitors, on: monitorsQueue)
        self.retryPolicy = retryPolicy
        self.interceptors = interceptors
        policyDeadlines = DeadlineRegistry(clock: self.clock)
        // A token authenticator made without origins sends its token to this layer's origin only.
        for case let authenticator as BearerTokenAuthenticator in interceptors {
            authenticator.adoptOrigin(of: baseURL)
            authenticator.adoptCache(cache)
            authenticator.adoptDeadlines(policyDeadlines)
        }
        self.maximumResponseSize = maximumResponseSize
        self.redirectPolicy = redirectPolicy
        self.baseURL = baseURL
        self.defaultHeaders = defaultHeaders
        self.encoder = encoder
        self.decoder = decoder
        self.callbackQueue = callbackQueue
        self.deliversImmediately = deliversImmediately
        self.timeout = timeout
        self.resourceTimeout = resourceTimeout
        builder = RequestBuilder(
            resolver: URLResolver(baseURL: baseURL), defaultHeaders: defaultHeaders,
            credentialHeaders: redirectPolicy.credentialHeaders, encoder: encoder, timeout: timeout)
        let ownTransport = sessionConfiguration.map { SessionTransport(configuration: $0) }
        self.ownTransport = ownTransport
        transferDeadlines =
            ownTransport.map { [clock = self.clock] in LayerSession($0, clock: clock).deadlines }
            ?? DeadlineRegistry(clock: self.clock) { SessionTransport.shared.delegateQueue.enqueue($0) }
        sharedStreamDeadlines = DeadlineRegistry(clock: self.clock) {
            SessionTransport.sharedStreams.delegateQueue.enqueue($0)
        }
        self.sessionConfiguration = sessionConfiguration?.copy() as? URLSessionConfiguration
    }

    // MARK: - The funnel
    //
    // Every request method below only builds a `NetworkRequest` and calls `send`, so a subclass that
    // overrides `send` (a test double, a spy) sees every request, whichever method started it.

    /// Sends `request`: the one entry point every other request method goes through.
    ///
    /// - Parameters:
    ///   - request: What to send, and what the reply becomes.
    ///   - successHandler: Receives the reply and its status, headers and URL on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    open func send<Value>(
        _ request: NetworkRequest<Value>,
        successHandler: @escaping (NetworkResponse<Value>) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        // A call answered in process learns when this method has returned (see ``InProcessCall``).
        var returned: (() -> Void)?
        defer { returned?() }
        return runningRequests.track(successHandler: successHandler, errorHandler: errorHandler) {
            startCall(request, returned: &returned, successHandler: $0, errorHandler: $1)
        }
    }

    /// Streams the reply to `request` as it arrives: each element goes to `eventHandler` in order, then
    /// `completionHandler` runs once. The second entry point beside ``send(_:successHandler:errorHandler:)``.
    ///
    /// Interceptors and monitors apply; the stream has no total size limit and holds the connection back
    /// while `eventHandler` is behind. A non-2xx reply fails with
    /// ``NetworkError/unacceptableStatusCode(_:body:headers:)`` before any event; after a cancel no event
    /// is delivered and the completion receives ``NetworkError/cancelled``. See <doc:StreamingReplies>.
    ///
    /// - Parameters:
    ///   - request: What to send; its `acceptableContentTypes`, when set, are checked before any event.
    ///   - format: How the bytes become elements: ``StreamFormat/serverSentEvents``,
    ///     ``StreamFormat/jsonLines(_:)``, ``StreamFormat/serverSentEvents(decoding:)`` or
    ///     ``StreamFormat/chunks``.
    ///   - options: Reconnection, idle timeout and event size; `nil` uses the request's
    ///     ``NetworkRequest/streamOptions``, else ``ServerSentEventsOptions/default``.
    ///   - eventHandler: Receives each element on ``callbackQueue``.
    ///   - completionHandler: Receives how the stream ended on ``callbackQueue``, once.
    /// - Returns: The stream, which can be cancelled.
    @discardableResult
    open func stream<Element>(
        _ request: NetworkRequest<Data>, as format: StreamFormat<Element>,
        options: ServerSentEventsOptions? = nil,
        eventHandler: @escaping (Element) -> Void,
        completionHandler: @escaping (Result<StreamSummary, NetworkError>) -> Void
    ) -> NetworkTask {
        if let responder = responder as? any InProcessStreamResponder {
            return responder.stream(
                request, as: format, options: options, on: self, eventHandler: eventHandler,
                completionHandler: completionHandler)
        }
        return runningRequests.track(
            successHandler: { (summary: StreamSummary) in completionHandler(.success(summary)) },
            errorHandler: { completionHandler(.failure($0)) },
            start: { succeed, fail in
                performStream(
                    request, as: format, options: options, eventHandler: eventHandler,
                    completionHandler: { result in
                        switch result {
                        case .success(let summary): succeed(summary)
                        case .failure(let error): fail(error)
                        }
                    })
            })
    }

    /// Cancels every request this layer has started whose handler has not run yet: each one's error handler
    /// receives ``NetworkError/cancelled`` once, as ``NetworkTask/cancel()`` does. Later requests go on.
    ///
    /// ```swift
    /// func signOut() {
    ///     networkLayer.cancelAll()  // nothing in flight may land on the signed-out screen
    /// }
    /// ```
    ///
    /// A subclass that overrides ``send(_:successHandler:errorHandler:)`` without calling `super` starts
    /// requests this method does not know about.
    public func cancelAll() {
        runningRequests.cancelAll()
    }

    // MARK: - Endpoints

    /// Sends an endpoint's request and decodes the JSON reply as `T`.
    ///
    /// - Parameters:
    ///   - endpoint: The request's path, method, query, headers, body and timeout.
    ///   - successHandler: Receives the decoded reply on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func request<T: Decodable & SendableMetatype>(
        _ endpoint: any Endpoint,
        successHandler: @escaping (T) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(
            NetworkRequest(endpoint), successHandler: { successHandler($0.value) }, errorHandler: errorHandler
        )
    }

    /// Sends an endpoint's request; any 2xx reply, with or without a body, is success.
    ///
    /// - Parameters:
    ///   - endpoint: The request's path, method, query, headers, body, timeout and retry policy.
    ///   - successHandler: Runs on ``callbackQueue`` when a 2xx reply arrives.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func request(
        _ endpoint: any Endpoint,
        successHandler: @escaping () -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(
            NetworkRequest<EmptyResponse>(endpoint), successHandler: { _ in successHandler() },
            errorHandler: errorHandler)
    }

    // MARK: - GET

    /// Sends a GET request and decodes the JSON reply as `T` (`Data` gives the raw bytes).
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - query: Query parameters, percent-encoded and sorted by name.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Receives the decoded reply on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func get<T: Decodable & SendableMetatype>(
        urlString: String,
        query: [String: String] = [:],
        headers: [String: String] = [:],
        successHandler: @escaping (T) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(
            NetworkRequest(urlString: urlString, query: query, headers: headers),
            successHandler: { successHandler($0.value) }, errorHandler: errorHandler)
    }

    /// Sends `body` in a POST request and decodes the JSON reply as `R`.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: JSON from ``encoder``; `Data` goes as is, typed by your `Content-Type` or as octet-stream.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Receives the decoded reply on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func post<T: Encodable, R: Decodable & SendableMetatype>(
        urlString: String,
        body: T,
        headers: [String: String] = [:],
        successHandler: @escaping (R) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        sendBody(.post, urlString, body, headers, { successHandler($0.value) }, errorHandler)
    }

    /// Sends `body` in a POST request; any 2xx reply, with or without a body, is success.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: JSON from ``encoder``; `Data` goes as is, typed by your `Content-Type` or as octet-stream.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Runs on ``callbackQueue`` when a 2xx reply arrives.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func post<T: Encodable>(
        urlString: String,
        body: T,
        headers: [String: String] = [:],
        successHandler: @escaping () -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        sendBody(
            .post, urlString, body, headers, { (_: NetworkResponse<EmptyResponse>) in successHandler() },
            errorHandler)
    }

    /// Sends `body` in a PUT request and decodes the JSON reply as `R`.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: JSON from ``encoder``; `Data` goes as is, typed by your `Content-Type` or as octet-stream.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Receives the decoded reply on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func put<T: Encodable, R: Decodable & SendableMetatype>(
        urlString: String,
        body: T,
        headers: [String: String] = [:],
        successHandler: @escaping (R) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        sendBody(.put, urlString, body, headers, { successHandler($0.value) }, errorHandler)
    }

    /// Sends `body` in a PUT request; any 2xx reply, with or without a body, is success.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: JSON from ``encoder``; `Data` goes as is, typed by your `Content-Type` or as octet-stream.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Runs on ``callbackQueue`` when a 2xx reply arrives.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func put<T: Encodable>(
        urlString: String,
        body: T,
        headers: [String: String] = [:],
        successHandler: @escaping () -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        sendBody(
            .put, urlString, body, headers, { (_: NetworkResponse<EmptyResponse>) in successHandler() },
            errorHandler)
    }

    /// Sends `body` in a PATCH request and decodes the JSON reply as `R`.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: JSON from ``encoder``; `Data` goes as is, typed by your `Content-Type` or as octet-stream.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Receives the decoded reply on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func patch<T: Encodable, R: Decodable & SendableMetatype>(
        urlString: String,
        body: T,
        headers: [String: String] = [:],
        successHandler: @escaping (R) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        sendBody(.patch, urlString, body, headers, { successHandler($0.value) }, errorHandler)
    }

    /// Sends `body` in a PATCH request; any 2xx reply, with or without a body, is success.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - body: JSON from ``encoder``; `Data` goes as is, typed by your `Content-Type` or as octet-stream.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Runs on ``callbackQueue`` when a 2xx reply arrives.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func patch<T: Encodable>(
        urlString: String,
        body: T,
        headers: [String: String] = [:],
        successHandler: @escaping () -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        sendBody(
            .patch, urlString, body, headers, { (_: NetworkResponse<EmptyResponse>) in successHandler() },
            errorHandler)
    }

    // MARK: - DELETE

    /// Sends a DELETE request and decodes the JSON reply as `R`.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Receives the decoded reply on ``callbackQueue``.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func delete<R: Decodable & SendableMetatype>(
        urlString: String,
        headers: [String: String] = [:],
        successHandler: @escaping (R) -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(
            NetworkRequest(method: .delete, urlString: urlString, headers: headers),
            successHandler: { successHandler($0.value) }, errorHandler: errorHandler)
    }

    /// Sends a DELETE request; any 2xx reply, with or without a body, is success.
    ///
    /// - Parameters:
    ///   - urlString: An absolute `http`/`https` URL, or a path resolved against ``baseURL``.
    ///   - headers: Headers for this request; they override ``defaultHeaders``.
    ///   - successHandler: Runs on ``callbackQueue`` when a 2xx reply arrives.
    ///   - errorHandler: Receives the failure on ``callbackQueue``.
    /// - Returns: The request, which can be cancelled.
    @discardableResult
    public func delete(
        urlString: String,
        headers: [String: String] = [:],
        successHandler: @escaping () -> Void,
        errorHandler: @escaping (NetworkError) -> Void
    ) -> NetworkTask {
        send(
            NetworkRequest<EmptyResponse>(method: .delete, urlString: urlString, headers: headers),
            successHandler: { _ in successHandler() }, errorHandler: errorHandler)
    }
}
