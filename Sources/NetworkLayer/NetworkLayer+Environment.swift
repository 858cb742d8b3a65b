import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkLayer {
    /// Creates a layer for an API environment: its base URL and headers become the layer's `baseURL` and
    /// `defaultHeaders`. The other parameters are those of
    /// ``init(baseURL:defaultHeaders:sessionConfiguration:encoder:decoder:callbackQueue:timeout:maximumResponseSize:redirectPolicy:retryPolicy:interceptors:monitors:)``.
    public convenience init(
        environment: APIEnvironment,
        sessionConfiguration: URLSessionConfiguration? = nil,
        encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder(),
        callbackQueue: DispatchQueue = .main,
        timeout: TimeInterval = 60,
        maximumResponseSize: Int = NetworkLayer.defaultMaximumResponseSize,
        redirectPolicy: RedirectPolicy = .default,
        retryPolicy: RetryPolicy = .none,
        interceptors: [any RequestInterceptor] = [],
        monitors: [any NetworkMonitor] = []
    ) {
        self.init(
            baseURL: environment.baseURL, defaultHeaders: environment.headers,
            sessionConfiguration: sessionConfiguration, encoder: encoder, decoder: decoder,
            callbackQueue: callbackQueue, timeout: timeout, maximumResponseSize: maximumResponseSize,
            redirectPolicy: redirectPolicy, retryPolicy: retryPolicy, interceptors: interceptors,
            monitors: monitors)
    }
}
