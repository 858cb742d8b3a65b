import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkLayer {
    /// Creates a layer for an API environment: its base URL and headers become the layer's ``baseURL``
    /// and ``defaultHeaders``. The other parameters are those of
    /// ``init(baseURL:defaultHeaders:sessionConfiguration:encoder:decoder:callbackQueue:deliversImmediately:timeout:resourceTimeout:maximumResponseSize:redirectPolicy:retryPolicy:interceptors:monitors:cache:scheduling:)``; a setting
    /// added since has none here: set it on ``Configuration/init(environment:)``'s value and use
    /// ``init(configuration:)``.
    ///
    /// ```swift
    /// let network = NetworkLayer(environment: Servers.staging)
    /// ```
    ///
    /// - Parameters:
    ///   - environment: The server: its base URL, and the headers every request to it carries.
    ///   - sessionConfiguration: `nil` shares one long-lived session; otherwise the layer owns one.
    ///   - encoder: Encodes JSON bodies.
    ///   - decoder: Decodes JSON replies.
    ///   - callbackQueue: Where handlers run.
    ///   - deliversImmediately: `true` runs handlers where each outcome is settled; see
    ///     ``deliversImmediately``.
    ///   - timeout: Seconds a request may wait for data before it fails with ``NetworkError/timedOut``.
    ///   - resourceTimeout: Seconds a request may take in all, retries included; see ``resourceTimeout``.
    ///   - maximumResponseSize: The most bytes a reply may have; see ``maximumResponseSize``.
    ///   - redirectPolicy: Which redirects to follow.
    ///   - retryPolicy: When a failed request is sent again; ``RetryPolicy/none`` by default.
    ///   - interceptors: Stages that adapt each attempt and may ask for another, run in order.
    ///   - monitors: What watches every request, called in order on a queue of their own.
    ///   - cache: Where replies to `GET` requests are kept; by default a memory-only cache, `nil` for none.
    ///   - scheduling: Sharing, rate-limit pauses and the per-origin budget; see ``RequestScheduling``.
    public convenience init(
        environment: APIEnvironment, sessionConfiguration: URLSessionConfiguration? = nil,
        encoder: JSONEncoder = JSONEncoder(), decoder: JSONDecoder = JSONDecoder(),
        callbackQueue: DispatchQueue = .main, deliversImmediately: Bool = false, timeout: TimeInterval = 60,
        resourceTimeout: TimeInterval = NetworkLayer.defaultResourceTimeout,
        maximumResponseSize: Int = NetworkLayer.defaultMaximumResponseSize,
        redirectPolicy: RedirectPolicy = .default, retryPolicy: RetryPolicy = .none,
        interceptors: [any RequestInterceptor] = [], monitors: [any NetworkMonitor] = [],
        cache: ResponseCache? = ResponseCache(), scheduling: RequestScheduling = .default
    ) {
        self.init(
            baseURL: environment.baseURL, defaultHeaders: environment.headers,
            sessionConfiguration: sessionConfiguration, encoder: encoder, decoder: decoder,
            callbackQueue: callbackQueue, deliversImmediately: deliversImmediately, timeout: timeout,
            resourceTimeout: resourceTimeout, maximumResponseSize: maximumResponseSize,
            redirectPolicy: redirectPolicy, retryPolicy: retryPolicy, interceptors: interceptors,
            monitors: monitors, cache: cache, scheduling: scheduling)
    }
}
