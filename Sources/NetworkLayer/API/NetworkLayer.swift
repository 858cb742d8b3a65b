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
/// subclass sees every request (what else it may rely on: <doc:Versioning#Subclassing-the-layer>). Its
/// state is immutable after `init`, so one instance can be used from any thread (hence `Sendable`); a
/// subclass must keep that promise and guard any state it adds with a lock.
/// Don't change the `encoder` or `decoder` after creating the layer: they are used from background queues.
open class NetworkLayer: @unchecked Sendable {
    let settings: LayerSettings
    let parts: LayerParts

    /// What the layer was made with: a copy, so changing it changes nothing here. Its properties that
    /// predate it are also the layer's own (``baseURL``, ``timeout``, ...).
    public var configuration: Configuration { settings.configuration }

    /// The URL that relative URL strings are resolved against.
    public var baseURL: URL? { settings.baseURL }
    /// Headers sent with every request; a request's own headers override them. Those that carry
    /// credentials go only to the base URL's origin (see `init`).
    public var defaultHeaders: [String: String] { settings.defaultHeaders }
    /// Encodes JSON request bodies.
    public var encoder: JSONEncoder { settings.encoder }
    /// Decodes JSON replies.
    public var decoder: JSONDecoder { settings.decoder }
    /// The queue every handler runs on, unless the layer ``deliversImmediately``.
    public var callbackQueue: DispatchQueue { settings.callbackQueue }
    /// Whether handlers run where each outcome is settled instead of on ``callbackQueue``: decoding,
    /// interceptors and handlers then run on the settling thread (the one that cancels, a transport's or an
    /// interceptor's completion), never on a session's own delegate queue, which they leave first. With a
    /// transport that answers in place (a test double's), the handler runs before the request method
    /// returns. A transfer with a ``NetworkRequest/progressHandler`` still delivers on its progress queue
    /// after its last progress call, and a stream its completion after its events. `false` by default. See
    /// <doc:ErrorsAndThreading>.
    public var deliversImmediately: Bool { settings.deliversImmediately }
    /// How long a request may wait for data, in seconds.
    public var timeout: TimeInterval { settings.timeout }
    /// How long a request kept in memory may take in all, retries and waits included: a server that
    /// trickles bytes never lets ``timeout`` pass, so this ends it with ``NetworkError/timedOut``.
    /// Downloads, uploads and streams have none unless they set ``NetworkRequest/resourceTimeout``.
    /// Zero, negative and NaN mean ``defaultResourceTimeout``; `.infinity` means no limit.
    public var resourceTimeout: TimeInterval { settings.resourceTimeout }
    /// The most bytes a reply's body may have after gzip inflation; a larger one stops as soon as that is
    /// known, with ``NetworkError/transport(_:)`` carrying `URLError(.dataLengthExceedsMaximum)`.
    public var maximumResponseSize: Int { settings.maximumResponseSize }
    /// Which redirects are followed, and what goes along to another origin.
    public var redirectPolicy: RedirectPolicy { settings.redirectPolicy }
    /// When a failed request is sent again; a request or endpoint may override it.
    public var retryPolicy: RetryPolicy { settings.retryPolicy }
    /// The stages that adapt every attempt and may ask for another after a failure, in order.
    public var interceptors: [any RequestInterceptor] { settings.interceptors }
    /// What watches every request, in order; see ``NetworkMonitor``.
    public var monitors: [any NetworkMonitor] { settings.monitors }
    /// The layer's HTTP cache (it replaces `URLCache` on every platform), or `nil` when caching is off.
    public var cache: ResponseCache? { settings.cache }
    /// How requests share a server: identical requests in flight sharing one, rate-limit pauses, a budget
    /// per origin. See ``RequestScheduling``.
    public var scheduling: RequestScheduling { settings.scheduling }

    /// The default ``maximumResponseSize``: 50 MiB.
    public static let defaultMaximumResponseSize = 50 * 1024 * 1024
    /// The default ``resourceTimeout``: five minutes, generous for any reply kept in memory, yet finite.
    public static let defaultResourceTimeout: TimeInterval = 300

    /// What changes after `init`, under one lock: the ``account``, the stream session once the first
    /// stream made it, and the scheduler once something needs it (``origins(making:)``).
    let changing = Locked(Changing())

    struct Changing {
        var account: String?
        var ownStreamSession: LayerSession?
        var origins: OriginScheduler?
    }

    /// Requests the scheduler keeps: shared requests in flight, requests counted against a budget or
    /// waiting for their origin, and origins held by a pause. 0 when all have ended; tests read it.
    package var scheduledCount: Int { parts.flights.count + (origins(making: false)?.count ?? 0) }
    /// The callers waiting for shared requests in flight, all flights together; tests read it to know every
    /// caller has joined before a reply goes.
    package var sharingCallerCount: Int { parts.flights.waiterCount }

    /// The requests started and not yet answered, for ``cancelAll()``.
    package let runningRequests = RunningRequests()

    /// What every time-based decision of the layer reads and schedules through (see ``NetworkClock``).
    package var clock: any NetworkClock { settings.clock }
    /// What answers every request in process instead of a session (a test double); `nil` sends them.
    var responder: (any InProcessResponder)? { settings.responder }
    package var builder: RequestBuilder { parts.builder }
    /// The one list of credential header names (see ``CredentialHeaderNames``).
    package var credentialHeaders: CredentialHeaderNames { parts.credentialHeaders }
    package var monitorGroup: MonitorGroup? { parts.monitorGroup }
    package var monitorsQueue: DispatchQueue { parts.monitorsQueue }

    /// Resolves the shared session lazily, so a test double that never sends creates none.
    var transport: SessionTransport { parts.ownTransport ?? .shared }

    var requestSession: LayerSession { LayerSession(transport, clock: clock) }

    /// Whether uploads go out as an upload task's file or bytes rather than the layer's body stream (see
    /// ``PlatformFacts/sendsUploadsNatively``); settable only with a session of its own (a stub
    /// transport, whose URLProtocol must see the body, or a test of the native form on Linux).
    package var sendsUploadsNatively: Bool {
        get { transport.sendsUploadsNatively }
        set { parts.ownTransport?.sendsUploadsNatively = newValue }
    }

    /// Keeps what answers the layer's sessions in process (a stub transport) alive as long as they are.
    package func keepAlive(_ dependency: any Sendable) {
        parts.ownTransport?.keepAlive(dependency)
        changing.withLock { $0.ownStreamSession }?.session.keepAlive(dependency)
    }

    /// The session streams go out on, apart from ordinary requests: a stream whose consumer is behind
    /// holds back its session's connections on Linux (see ``BackPressureQueue/pauseReading(_:)``),
    /// and must never hold back an ordinary request. Made by the first stream.
    var streamSession: LayerSession {
        guard let configuration = parts.streamConfiguration else {
            return LayerSession(.sharedStreams, clock: clock)
        }
        return changing.withLock { changing in
            if let session = changing.ownStreamSession { return session }
            let made = SessionTransport(configuration: configuration)
            made.dependencies = parts.ownTransport?.dependencies ?? []
            let layerSession = LayerSession(made, clock: clock)
            changing.ownStreamSession = layerSession
            return layerSession
        }
    }

    /// The per-origin budget and the holds servers asked for. Made by the first request a budget counts or
    /// the first pause a reply asks (`making`), so a layer with neither passes no gate (see ``OriginGate``).
    func origins(making: Bool) -> OriginScheduler? {
        changing.withLock { changing in
            if changing.origins == nil, making {
                changing.origins = OriginScheduler(
                    clock: clock, budget: scheduling.maximumRequestsPerOrigin,
                    longestHold: scheduling.maximumRateLimitWait)
            }
            return changing.origins
        }
    }

    /// Creates a layer made with `configuration`.
    ///
    /// ```swift
    /// var configuration = NetworkLayer.Configuration()
    /// configuration.baseURL = URL(string: "https://api.example.com/v1")
    /// configuration.acceptableContentTypes = ["application/json"]
    /// let network = NetworkLayer(configuration: configuration)
    /// ```
    ///
    /// - Parameter configuration: Every setting of the layer; the layer keeps a copy (see
    ///   ``Configuration``).
    public convenience init(configuration: Configuration) {
        // Not a designated initializer: a subclass that overrides every designated one keeps inheriting this.
        self.init(LayerSettings(configuration, clock: SystemClock()))
    }

    /// Creates a layer: each parameter is the ``Configuration`` property of the same name, whose
    /// documentation says what it does. Settings added since this initializer have no parameter here: set
    /// them on a configuration and use ``init(configuration:)``.
    ///
    /// - Parameters:
    ///   - baseURL: Resolves relative URL strings; see ``Configuration/baseURL``.
    ///   - defaultHeaders: Headers for every request; see ``Configuration/defaultHeaders``.
    ///   - sessionConfiguration: `nil` shares one long-lived session among all layers; see
    ///     ``Configuration/sessionConfiguration``.
    ///   - encoder: Encodes JSON bodies.
    ///   - decoder: Decodes JSON replies.
    ///   - callbackQueue: Where handlers run; see ``Configuration/callbackQueue``.
    ///   - deliversImmediately: `true` runs handlers where each outcome is settled; see
    ///     ``deliversImmediately``.
    ///   - timeout: Seconds a request may wait for data before it fails with ``NetworkError/timedOut``.
    ///   - resourceTimeout: Seconds a request may take in all, retries included; see ``resourceTimeout``.
    ///   - maximumResponseSize: The most bytes a reply may have; see ``maximumResponseSize``.
    ///   - redirectPolicy: Which redirects to follow; see ``Configuration/redirectPolicy``.
    ///   - retryPolicy: When a failed request is sent again; ``RetryPolicy/none`` by default.
    ///   - interceptors: Stages that adapt each attempt and may ask for another, in order.
    ///   - monitors: What watches every request, in order, on a queue of their own.
    ///   - cache: Where `GET` replies are kept; by default a 4 MB memory-only cache, `nil` for none.
    ///   - scheduling: Sharing, rate-limit pauses and the per-origin budget; see ``RequestScheduling``.
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
        cache: ResponseCache? = ResponseCache(),
        scheduling: RequestScheduling = .default
    ) {
        let configuration = Configuration(
            baseURL: baseURL, defaultHeaders: defaultHeaders, sessionConfiguration: sessionConfiguration,
            encoder: encoder, decoder: decoder, callbackQueue: callbackQueue,
            deliversImmediately: deliversImmediately, timeout: timeout, resourceTimeout: resourceTimeout,
            maximumResponseSize: maximumResponseSize, redirectPolicy: redirectPolicy,
            retryPolicy: retryPolicy, interceptors: interceptors, monitors: monitors, cache: cache,
            scheduling: scheduling)
        settings = LayerSettings(configuration, clock: SystemClock())
        parts = LayerParts(settings)
    }

    /// A layer on the settings' clock, answered in process by their responder, if any.
    ///
    /// - Parameter settings: The configuration, the clock and the responder.
    package init(_ settings: LayerSettings) {
        self.settings = settings
        parts = LayerParts(settings)
    }

    // MARK: - The funnel

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
        if let responder {
            return responder.stream(
                request, as: format, options: options, on: self, eventHandler: eventHandler,
                completionHandler: completionHandler)
        }
        // The stream's outcome is the tracked value: it ends only through its completion.
        return runningRequests.track(
            successHandler: completionHandler, errorHandler: { completionHandler(.failure($0)) },
            start: { finish, _ in
                performStream(
                    request, as: format, options: options, eventHandler: eventHandler,
                    completionHandler: finish)
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
}
