import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Canned replies for the real `NetworkLayer` pipeline, in-process, without sockets.
///
/// Encoding, validation, decoding and threading all run for real; only the wire is replaced by a
/// `URLProtocol` installed through `URLSessionConfiguration.protocolClasses` (on Linux,
/// `URLProtocol.registerClass` has no effect on URLSession). Each transport has its own stubs and
/// recordings, so parallel tests never see each other's.
///
/// ```swift
/// let stubs = StubTransport()
/// stubs.stub(.get, "https://api.example.com/employees", with: .json([Employee(name: "Ann")]))
/// let network = stubs.makeNetworkLayer()
/// ```
public final class StubTransport: @unchecked Sendable {
    private struct State {
        var stubs: [Stub] = []
        var requests: [RecordedRequest] = []
        var cancellations: [RecordedRequest] = []
    }

    private let state = Locked(State())
    // Written only in `init`, which must pass the transport itself to get it: the one reason the class is
    // `@unchecked Sendable`.
    private var protocolClass: StubURLProtocol.Type = StubURLProtocol.self

    struct Stub: Sendable {
        let method: HTTPMethod?
        let matcher: RequestMatcher
        /// The answer to a request the stub matched.
        let answer: @Sendable (RecordedRequest) -> StubResponse
    }

    /// Creates a transport with no stubs.
    public init() {
        protocolClass = StubURLProtocol.register(self)
    }

    /// Answers requests with `method` (any method when `nil`) whose URL `matcher` accepts.
    ///
    /// The most recently added matching stub answers, so a test can override an earlier one.
    ///
    /// - Parameters:
    ///   - method: The requests' HTTP method; `nil` for any.
    ///   - matcher: Which URLs: a string literal matches one exactly; see ``RequestMatcher``.
    ///   - response: The answer.
    public func stub(_ method: HTTPMethod? = nil, _ matcher: RequestMatcher, with response: StubResponse) {
        stub(method, matcher) { _ in response }
    }

    /// Answers requests with `method` (any method when `nil`) whose URL `matcher` accepts with what
    /// `answer` makes of each; called after the request is recorded, with no lock held.
    func stub(
        _ method: HTTPMethod?, _ matcher: RequestMatcher,
        answer: @escaping @Sendable (RecordedRequest) -> StubResponse
    ) {
        state.withLock { $0.stubs.append(Stub(method: method, matcher: matcher, answer: answer)) }
    }

    /// Every request that reached the transport, in order, bodies included.
    public var recordedRequests: [RecordedRequest] {
        state.withLock { $0.requests }
    }

    /// The requests that were cancelled before the transport answered them, in order.
    ///
    /// The session stops a request's loading shortly after `NetworkTask.cancel()`, so wait for this to
    /// change rather than reading it straight after the cancel.
    public var cancelledRequests: [RecordedRequest] {
        state.withLock { $0.cancellations }
    }

    /// Removes all stubs and recordings.
    public func reset() {
        state.withLock { state in
            state.stubs.removeAll()
            state.requests.removeAll()
            state.cancellations.removeAll()
        }
    }

    func recordCancellation(of request: RecordedRequest) {
        state.withLock { $0.cancellations.append(request) }
    }

    /// A session configuration whose requests this transport answers. A layer or session built from it
    /// doesn't keep the transport: keep a reference to it while they send (a layer from
    /// ``makeNetworkLayer(baseURL:defaultHeaders:sessionConfiguration:encoder:decoder:callbackQueue:deliversImmediately:timeout:resourceTimeout:maximumResponseSize:redirectPolicy:retryPolicy:interceptors:monitors:clock:scheduling:)``
    /// keeps it), or their requests fail with `URLError(.unsupportedURL)`.
    public func makeConfiguration() -> URLSessionConfiguration {
        makeConfiguration(from: nil)
    }

    /// A copy of `base` (an ephemeral configuration when `nil`) whose requests this transport answers: its
    /// cache, cookies and headers are kept, this transport's protocol class comes first.
    func makeConfiguration(from base: URLSessionConfiguration?) -> URLSessionConfiguration {
        let configuration = base.flatMap { $0.copy() as? URLSessionConfiguration } ?? .ephemeral
        configuration.protocolClasses = [protocolClass] + (configuration.protocolClasses ?? [])
        return configuration
    }

    /// A `NetworkLayer` whose requests this transport answers; the parameters are the
    /// `NetworkLayer.Configuration` properties of the same name, so no test has to build the layer from
    /// ``makeConfiguration()`` by hand. A setting added since has no parameter here: use
    /// ``makeNetworkLayer(configuration:clock:)``.
    ///
    /// - Parameters:
    ///   - baseURL: Resolves relative URL strings.
    ///   - defaultHeaders: Headers for every request.
    ///   - sessionConfiguration: The configuration to start from (its cache, cookies, headers); the layer
    ///     gets a copy that this transport answers. `nil`: an ephemeral one.
    ///   - encoder: Encodes JSON bodies.
    ///   - decoder: Decodes JSON replies.
    ///   - callbackQueue: Where handlers run.
    ///   - deliversImmediately: Whether handlers run where each outcome is settled instead.
    ///   - timeout: Seconds a request may wait for data.
    ///   - resourceTimeout: Seconds a request may take in all, retries included.
    ///   - maximumResponseSize: The most bytes a reply may have.
    ///   - redirectPolicy: Which redirects to follow.
    ///   - retryPolicy: When a failed request is sent again.
    ///   - interceptors: Stages that adapt each attempt and may ask for another.
    ///   - monitors: What watches every request.
    ///   - clock: Time the test moves, for every deadline, wait and date of the layer; `nil`: real time.
    ///   - scheduling: Sharing, rate-limit pauses and the per-origin budget, as in the real layer.
    /// - Returns: A layer with a session of its own, answered by this transport, which it keeps alive:
    ///   `StubTransport().makeNetworkLayer()` needs no other reference to the transport.
    public func makeNetworkLayer(
        baseURL: URL? = nil, defaultHeaders: [String: String] = [:],
        sessionConfiguration: URLSessionConfiguration? = nil, encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder(), callbackQueue: DispatchQueue = .main,
        deliversImmediately: Bool = false, timeout: TimeInterval = 60,
        resourceTimeout: TimeInterval = NetworkLayer.defaultResourceTimeout,
        maximumResponseSize: Int = NetworkLayer.defaultMaximumResponseSize,
        redirectPolicy: RedirectPolicy = .default, retryPolicy: RetryPolicy = .none,
        interceptors: [any RequestInterceptor] = [], monitors: [any NetworkMonitor] = [],
        clock: TestClock? = nil, scheduling: RequestScheduling = .default
    ) -> NetworkLayer {
        makeNetworkLayer(
            configuration: NetworkLayer.Configuration(
                baseURL: baseURL, defaultHeaders: defaultHeaders, sessionConfiguration: sessionConfiguration,
                encoder: encoder, decoder: decoder, callbackQueue: callbackQueue,
                deliversImmediately: deliversImmediately, timeout: timeout, resourceTimeout: resourceTimeout,
                maximumResponseSize: maximumResponseSize, redirectPolicy: redirectPolicy,
                retryPolicy: retryPolicy, interceptors: interceptors, monitors: monitors,
                cache: ResponseCache(), scheduling: scheduling),
            clock: clock)
    }

    /// A `NetworkLayer` made with `configuration` whose requests this transport answers (every attempt of a
    /// retried request is answered and recorded).
    ///
    /// - Parameters:
    ///   - configuration: Every setting of the layer. Its `sessionConfiguration` is the one to start from
    ///     (its cache, cookies, headers); the layer gets a copy that this transport answers. `nil`: an
    ///     ephemeral one.
    ///   - clock: Time the test moves, for every deadline, wait and date of the layer; `nil`: real time.
    /// - Returns: A layer with a session of its own, answered by this transport, which it keeps alive:
    ///   `StubTransport().makeNetworkLayer(configuration: .init())` needs no other reference to the
    ///   transport.
    public func makeNetworkLayer(configuration: NetworkLayer.Configuration, clock: TestClock? = nil)
        -> NetworkLayer
    {
        var configuration = configuration
        configuration.sessionConfiguration = makeConfiguration(from: configuration.sessionConfiguration)
        let network = NetworkLayer(clock: clock, configuration: configuration)
        // The stub's URLProtocol reads an upload's body from its stream; an upload task's body would reach
        // no URLProtocol on any platform.
        network.sendsUploadsNatively = false
        // The layer's protocol class finds this transport through a weak registry: the layer keeps it.
        network.keepAlive(self)
        return network
    }

    /// A `NetworkLayer` for an API environment whose requests this transport answers; the parameters are
    /// `NetworkLayer.init(environment:...)`'s.
    ///
    /// - Parameters:
    ///   - environment: The server: its base URL and the headers every request to it carries.
    ///   - sessionConfiguration: The configuration to start from; see
    ///     ``makeNetworkLayer(baseURL:defaultHeaders:sessionConfiguration:encoder:decoder:callbackQueue:deliversImmediately:timeout:resourceTimeout:maximumResponseSize:redirectPolicy:retryPolicy:interceptors:monitors:clock:scheduling:)``.
    ///   - encoder: Encodes JSON bodies.
    ///   - decoder: Decodes JSON replies.
    ///   - callbackQueue: Where handlers run.
    ///   - timeout: Seconds a request may wait for data.
    ///   - resourceTimeout: Seconds a request may take in all, retries included.
    ///   - maximumResponseSize: The most bytes a reply may have.
    ///   - redirectPolicy: Which redirects to follow.
    ///   - retryPolicy: When a failed request is sent again.
    ///   - interceptors: Stages that adapt each attempt and may ask for another.
    ///   - monitors: What watches every request.
    ///   - clock: Time the test moves, for every deadline, wait and date of the layer; `nil`: real time.
    /// - Returns: A layer with a session of its own, answered by this transport.
    public func makeNetworkLayer(
        environment: APIEnvironment, sessionConfiguration: URLSessionConfiguration? = nil,
        encoder: JSONEncoder = JSONEncoder(), decoder: JSONDecoder = JSONDecoder(),
        callbackQueue: DispatchQueue = .main, timeout: TimeInterval = 60,
        resourceTimeout: TimeInterval = NetworkLayer.defaultResourceTimeout,
        maximumResponseSize: Int = NetworkLayer.defaultMaximumResponseSize,
        redirectPolicy: RedirectPolicy = .default, retryPolicy: RetryPolicy = .none,
        interceptors: [any RequestInterceptor] = [], monitors: [any NetworkMonitor] = [],
        clock: TestClock? = nil
    ) -> NetworkLayer {
        makeNetworkLayer(
            baseURL: environment.baseURL, defaultHeaders: environment.headers,
            sessionConfiguration: sessionConfiguration, encoder: encoder, decoder: decoder,
            callbackQueue: callbackQueue, timeout: timeout, resourceTimeout: resourceTimeout,
            maximumResponseSize: maximumResponseSize, redirectPolicy: redirectPolicy,
            retryPolicy: retryPolicy,
            interceptors: interceptors,
            monitors: monitors, clock: clock)
    }

    /// Records `request` and picks its answer; an unmatched request fails with a message listing the stubs.
    ///
    /// The stubs are the ones there when the request is recorded, taken in the same step; their matchers
    /// (which may be the test's own closures) and answers run after, with no lock held.
    func respond(to request: RecordedRequest) -> StubResponse {
        let stubs = state.withLock { state in
            state.requests.append(request)
            return state.stubs
        }
        let match = stubs.last { stub in
            (stub.method == nil || stub.method == request.method) && stub.matcher.matches(request.url)
        }
        if let match { return match.answer(request) }
        let known = stubs.map { "  \($0.method?.rawValue ?? "ANY") \($0.matcher)" }.joined(
            separator: "\n")
        let message =
            "StubTransport: no stub matches \(request). Stubs:\n\(known.isEmpty ? "  (none)" : known)"
        return .failure(URLError(.unsupportedURL, userInfo: [NSLocalizedDescriptionKey: message]))
    }
}
