import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension NetworkLayer {
    /// A layer whose every deadline, wait and date runs on `clock`: for a test against a ``MockServer``
    /// or another real transport. The other parameters are the `NetworkLayer.Configuration` properties of
    /// the same name; a setting added since has no parameter here: use ``init(clock:configuration:)``.
    ///
    /// - Parameters:
    ///   - clock: The time the test moves; see ``TestClock``. `nil`: real time, as the layer's own
    ///     initializer.
    ///   - baseURL: What relative paths resolve against.
    ///   - defaultHeaders: Headers every request carries.
    ///   - sessionConfiguration: A configuration for a session of the layer's own.
    ///   - encoder: Encodes JSON bodies.
    ///   - decoder: Decodes JSON replies.
    ///   - callbackQueue: Where handlers run.
    ///   - deliversImmediately: Whether handlers run where each request is settled.
    ///   - timeout: Seconds, on `clock`, a request may wait for data.
    ///   - resourceTimeout: Seconds, on `clock`, a request may take in all.
    ///   - maximumResponseSize: The most bytes a reply may have.
    ///   - redirectPolicy: Which redirects to follow.
    ///   - retryPolicy: When a failed request is sent again; its waits run on `clock`.
    ///   - interceptors: Stages that adapt each attempt and may ask for another.
    ///   - monitors: What watches every request.
    ///   - cache: Where `GET` replies are kept; their age and freshness are read on `clock`.
    ///   - scheduling: Sharing, rate-limit pauses (kept on `clock`) and the per-origin budget.
    public convenience init(
        clock: TestClock?,
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
        self.init(
            clock: clock,
            configuration: Configuration(
                baseURL: baseURL, defaultHeaders: defaultHeaders, sessionConfiguration: sessionConfiguration,
                encoder: encoder, decoder: decoder, callbackQueue: callbackQueue,
                deliversImmediately: deliversImmediately, timeout: timeout, resourceTimeout: resourceTimeout,
                maximumResponseSize: maximumResponseSize, redirectPolicy: redirectPolicy,
                retryPolicy: retryPolicy, interceptors: interceptors, monitors: monitors, cache: cache,
                scheduling: scheduling))
    }

    /// A layer made with `configuration` whose every deadline, wait and date runs on `clock`: for a test
    /// against a ``MockServer`` or another real transport.
    ///
    /// - Parameters:
    ///   - clock: The time the test moves; see ``TestClock``. `nil`: real time, as
    ///     `NetworkLayer.init(configuration:)`.
    ///   - configuration: Every setting of the layer.
    public convenience init(clock: TestClock?, configuration: Configuration) {
        self.init(LayerSettings(configuration, clock: clock?.time ?? SystemClock()))
    }
}
