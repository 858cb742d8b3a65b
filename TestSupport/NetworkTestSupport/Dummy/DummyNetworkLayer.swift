import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `NetworkLayer` for presenter tests: it sends nothing, answers from what the test stubbed, and
/// records every request exactly as the real layer would have sent it.
///
/// It runs the layer's own pipeline, with the stubs in place of the network: the real builder,
/// interceptors and retry policy, the real checks of each reply (status, `acceptableContentTypes`, size
/// limit, HEAD and 204 replies), the real decoding, monitors and metrics, and the real task latch that lets
/// exactly one handler run exactly once. Whatever the real layer refuses, the dummy refuses the same way.
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
///   the stubbed bytes when the stub was `Data`, their `metrics` the real layer's. A request that names
///   `acceptableContentTypes` is answered in the first of them, unless the stub gives a `Content-Type`.
///
/// **Downloads and uploads.** A download is answered with a stubbed `Data` (or the URL of a file),
/// which the dummy writes to the destination before the success handler receives it; a destination the
/// real layer would refuse (a file already there without `.replaceExisting`, a missing folder) and an
/// upload of a missing file are refused as the real layer refuses them, before anything is recorded.
/// An upload is recorded with what it would send (``RecordedRequest/upload``: bytes, file or form) and
/// answered like any request. Progress handlers get ``scriptedProgress``, or one call with every byte
/// before a success; a held transfer's, what the test reports with
/// ``DummyPendingRequest/reportProgress(completedBytes:expectedBytes:)``. A resumable upload is recorded
/// as the plain upload of its file: what a presenter sees of an interruption is its progress pausing,
/// then continuing from what the server had, which the test scripts either way.
///
/// **Delivery.** The dummy is a layer that delivers immediately (`deliversImmediately`): each handler
/// runs where its outcome is settled, with no hop to `callbackQueue`. Its answers are settled inside the
/// request method, so the handler runs before the method returns and a test asserts right after the
/// call; retries are answered at once too, whatever the retry policy or `Retry-After` asks to wait (the
/// dummy's clock skips every wait, and no deadline passes on it). Set ``deliveryQueue`` to deliver
/// asynchronously on a queue instead, or ``holdsReplies`` to keep each request in ``pendingRequests``
/// until the test releases it (to see a loading state; ``nextPendingRequest(timeout:)`` waits for one an
/// `async` presenter's task makes): the handler then runs on the releasing thread. When an interceptor or
/// a token refresh completes later instead of in place, the handler runs where it completed, after the
/// request method returned: wait for it with an expectation. `cancelAll()` cancels every request whose
/// handler has not run yet (held, or scheduled on the delivery queue), as each task's `cancel()` would.
/// The `async` forms of `NetworkLayer` go through the same funnel, so the dummy answers them the same
/// way.
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
    let state: Locked<DummyState>

    /// Creates a dummy layer.
    ///
    /// - Parameters:
    ///   - baseURL: Resolves relative URL strings of requests and stubs, by the real layer's rule.
    ///   - defaultHeaders: Merged into every recorded request's headers, as the real layer sends them.
    ///   - encoder: Encodes request bodies for the recordings, as the real layer would.
    ///   - decoder: Decodes stubbed `Data` for requests that expect another type, as the real layer would.
    ///   - deliveryQueue: `nil` delivers immediately, where each answer is settled (inside the request
    ///     method for a stubbed one); a queue becomes the layer's `callbackQueue`, and handlers run
    ///     asynchronously on it.
    ///   - retryPolicy: Replays failed answers as the real layer would, at once instead of after a wait.
    ///   - interceptors: Adapt every recorded request and decide about failed answers, as in the real
    ///     layer (in place: a token refresh that completes synchronously keeps the answer synchronous; one
    ///     that completes later has the answer delivered where it completed, or on the delivery queue).
    ///   - monitors: Told about every request as the real layer tells them (built, started, the stubbed
    ///     answer as a response, retries, and the outcome with metrics; not a transfer's progress, which
    ///     goes only to its progress handler, as scripted), on their own queue, so an app's
    ///     logging or analytics hook is testable without a network. The events arrive asynchronously:
    ///     wait for `didFinish` before asserting on them.
    ///   - clock: Time the test moves: the dummy's waits (a retry's backoff, `Retry-After`) and deadlines
    ///     (timeouts, interceptor limits) run when ``TestClock/advance(by:)-(TimeInterval)`` passes them. Without one,
    ///     every wait is over at once and no deadline ever passes.
    ///   - scheduling: As in the real layer: identical requests held at once share one held request (so
    ///     "three presenters, one request" is testable), a stubbed `429` with `Retry-After` holds the
    ///     origin on the `clock`, and a budget queues requests by priority. `RequestScheduling.disabled`
    ///     holds and answers every request on its own.
    public init(
        baseURL: URL? = nil,
        defaultHeaders: [String: String] = [:],
        encoder: JSONEncoder = JSONEncoder(),
        decoder: JSONDecoder = JSONDecoder(),
        deliveryQueue: DispatchQueue? = nil,
        retryPolicy: RetryPolicy = .none,
        interceptors: [any RequestInterceptor] = [],
        monitors: [any NetworkMonitor] = [],
        clock: TestClock? = nil,
        scheduling: RequestScheduling = .default
    ) {
        let configuration = NetworkLayer.Configuration(
            baseURL: baseURL, defaultHeaders: defaultHeaders, encoder: encoder, decoder: decoder,
            retryPolicy: retryPolicy, interceptors: interceptors, monitors: monitors, cache: nil,
            scheduling: scheduling)
        let state = Locked(DummyState(deliveryQueue: deliveryQueue))
        self.state = state
        super.init(Self.settings(configuration, deliveryQueue: deliveryQueue, clock: clock, state: state))
    }

    /// Creates a dummy layer made with `configuration`, as the real layer would be, but for where handlers
    /// run (`deliveryQueue` decides) and the session (the dummy sends nothing). Its `cache` is used as the
    /// real layer uses it: stubbed replies a cache may keep are kept, and answer identical requests.
    ///
    /// - Parameters:
    ///   - configuration: Every setting of the layer; its `callbackQueue`, `deliversImmediately` and
    ///     `sessionConfiguration` play no part.
    ///   - deliveryQueue: `nil` delivers immediately, where each answer is settled (inside the request
    ///     method for a stubbed one); a queue becomes the layer's `callbackQueue`, and handlers run
    ///     asynchronously on it.
    ///   - clock: Time the test moves, as in
    ///     ``init(baseURL:defaultHeaders:encoder:decoder:deliveryQueue:retryPolicy:interceptors:monitors:clock:scheduling:)``.
    public convenience init(
        configuration: NetworkLayer.Configuration, deliveryQueue: DispatchQueue? = nil,
        clock: TestClock? = nil
    ) {
        // Not a designated initializer: a subclass that overrides every designated one keeps inheriting this.
        self.init(made: configuration, deliveryQueue: deliveryQueue, clock: clock)
    }

    init(made configuration: NetworkLayer.Configuration, deliveryQueue: DispatchQueue?, clock: TestClock?) {
        let state = Locked(DummyState(deliveryQueue: deliveryQueue))
        self.state = state
        super.init(Self.settings(configuration, deliveryQueue: deliveryQueue, clock: clock, state: state))
    }

    /// Immediate delivery and a clock on which waits are over at once: the answer to an in-process reply
    /// comes before `send` returns. A delivery queue is the layer's callback queue, as usual.
    private static func settings(
        _ configuration: NetworkLayer.Configuration, deliveryQueue: DispatchQueue?, clock: TestClock?,
        state: Locked<DummyState>
    ) -> LayerSettings {
        var settings = LayerSettings(
            configuration, clock: clock?.time ?? DummyClock(), responder: DummyResponder(state: state))
        settings.configuration.sessionConfiguration = nil
        settings.configuration.callbackQueue = deliveryQueue ?? .main
        settings.configuration.deliversImmediately = deliveryQueue == nil
        return settings
    }

    /// Creates a dummy layer for an API environment: its base URL and headers, as the real layer's
    /// `init(environment:)` uses them.
    ///
    /// - Parameters:
    ///   - environment: The base URL and default headers.
    ///   - encoder: The app's encoder, so recorded bodies are what the app sends (a snake_case
    ///     encoder records snake_case keys).
    ///   - decoder: The app's decoder, for stubbed `Data` and fixture files.
    ///   - deliveryQueue: `nil` delivers immediately; a queue runs handlers asynchronously on it.
    ///   - retryPolicy: As in ``init(baseURL:defaultHeaders:encoder:decoder:deliveryQueue:retryPolicy:interceptors:monitors:clock:scheduling:)``.
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
}
