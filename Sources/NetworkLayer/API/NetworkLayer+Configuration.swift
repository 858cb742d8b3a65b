import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkLayer {
    /// Everything a layer is made with, as one value: make it, change what you need, and hand it to
    /// ``NetworkLayer/init(configuration:)``. As `URLSessionConfiguration` is to `URLSession`, but a value:
    /// the layer keeps its own copy, so changing a configuration after making a layer changes nothing.
    ///
    /// ```swift
    /// var configuration = NetworkLayer.Configuration(environment: Servers.staging)
    /// configuration.timeout = 20
    /// configuration.interceptors = [authenticator]
    /// let network = NetworkLayer(configuration: configuration)
    /// ```
    ///
    /// Every initializer of the layer and of its test doubles builds one; a new setting is a new property
    /// here, with its default, read where it is used through ``NetworkLayer/configuration``.
    public struct Configuration {
        /// Resolves relative URL strings: `users` and `/users` against `https://api.example.com/v1` both
        /// give `https://api.example.com/v1/users`.
        public var baseURL: URL?
        /// Headers for every request; a request's own override them. Credential headers (`Authorization`,
        /// `Cookie`, `X-Api-Key`, ... and ``RedirectPolicy/credentialHeaders``) go only to the base URL's
        /// origin (without one, the first request's), as on a redirect.
        public var defaultHeaders: [String: String]
        /// `nil` shares one long-lived session among all layers (what an app wants); with one, the layer owns
        /// a session (to inject `protocolClasses`, change caching or cookies).
        public var sessionConfiguration: URLSessionConfiguration?
        /// Encodes JSON bodies. Don't change it once a layer uses it: it is used from background queues.
        public var encoder: JSONEncoder
        /// Decodes JSON replies. Don't change it once a layer uses it: it is used from background queues.
        public var decoder: JSONDecoder
        /// Where handlers run. Keep `.main` when handlers are main-actor code (in a MainActor-default module
        /// every plain closure is); with another queue, write them `@Sendable` or use the `async` forms (see
        /// <doc:MainActorDefaultModules>).
        public var callbackQueue: DispatchQueue
        /// `true` runs handlers where each outcome is settled instead of on ``callbackQueue``; see
        /// ``NetworkLayer/deliversImmediately``.
        public var deliversImmediately: Bool
        /// Seconds a request may wait for data before it fails with ``NetworkError/timedOut``. Fractions
        /// count: 0.5 waits half a second.
        public var timeout: TimeInterval
        /// Seconds a request may take in all, retries included; see ``NetworkLayer/resourceTimeout``.
        public var resourceTimeout: TimeInterval
        /// The most bytes a reply may have; see ``NetworkLayer/maximumResponseSize``.
        public var maximumResponseSize: Int
        /// Which redirects to follow; the default never downgrades to http and sends none of the caller's
        /// headers to another origin.
        public var redirectPolicy: RedirectPolicy
        /// When a failed request is sent again; ``RetryPolicy/none`` by default.
        public var retryPolicy: RetryPolicy
        /// Stages that adapt each attempt and may ask for another, in order; see ``RequestInterceptor``.
        public var interceptors: [any RequestInterceptor]
        /// What watches every request, in order, on a queue of their own; see ``NetworkMonitor``.
        public var monitors: [any NetworkMonitor]
        /// Where `GET` replies are kept (RFC 9111); by default a 4 MB memory-only cache, `nil` for none. See
        /// <doc:CachingAndOffline>.
        public var cache: ResponseCache?
        /// Whether identical requests share one, whether a server's rate limit holds every request to it,
        /// and the most requests in flight per origin; see ``RequestScheduling``.
        public var scheduling: RequestScheduling
        /// The media types a 2xx reply kept in memory may have when its request names none
        /// (``NetworkRequest/acceptableContentTypes``); `nil`, the default, accepts any.
        ///
        /// A JSON API's client sets `["application/json"]`, so a captive portal's or a misconfigured proxy's
        /// HTML page fails with ``NetworkError/unacceptableContentType(_:body:headers:)`` instead of reaching a decoder.
        /// Downloads, uploads and streams, whose replies are rarely the API's type, check only their own.
        public var acceptableContentTypes: [String]? = nil

        /// The defaults: a shared session, the main queue, a 60 s timeout, a 4 MB memory-only cache, and
        /// identical requests in flight sharing one.
        public init() {
            self.init(cache: ResponseCache())
        }
    }
}

extension NetworkLayer.Configuration {
    /// The defaults for an API environment: its base URL and headers become ``baseURL`` and
    /// ``defaultHeaders``.
    ///
    /// - Parameter environment: The server: its base URL, and the headers every request to it carries.
    public init(environment: APIEnvironment) {
        self.init()
        baseURL = environment.baseURL
        defaultHeaders = environment.headers
    }

    /// The settings the layer's first initializer took, one by one, with their defaults: what that
    /// initializer and its counterparts in the test support (which keep their parameter lists so that apps
    /// and tests keep compiling) build the value from. A setting added since has its default where it is
    /// declared, and is set on the value.
    package init(
        baseURL: URL? = nil, defaultHeaders: [String: String] = [:],
        sessionConfiguration: URLSessionConfiguration? = nil, encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder(), callbackQueue: DispatchQueue = .main,
        deliversImmediately: Bool = false, timeout: TimeInterval = 60,
        resourceTimeout: TimeInterval = NetworkLayer.defaultResourceTimeout,
        maximumResponseSize: Int = NetworkLayer.defaultMaximumResponseSize,
        redirectPolicy: RedirectPolicy = .default, retryPolicy: RetryPolicy = .none,
        interceptors: [any RequestInterceptor] = [], monitors: [any NetworkMonitor] = [],
        cache: ResponseCache?, scheduling: RequestScheduling = .default
    ) {
        self.baseURL = baseURL
        self.defaultHeaders = defaultHeaders
        self.sessionConfiguration = sessionConfiguration
        self.encoder = encoder
        self.decoder = decoder
        self.callbackQueue = callbackQueue
        self.deliversImmediately = deliversImmediately
        self.timeout = timeout
        self.resourceTimeout = resourceTimeout
        self.maximumResponseSize = maximumResponseSize
        self.redirectPolicy = redirectPolicy
        self.retryPolicy = retryPolicy
        self.interceptors = interceptors
        self.monitors = monitors
        self.cache = cache
        self.scheduling = scheduling
    }
}
