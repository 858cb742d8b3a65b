import Foundation
import LoopbackHTTP
import NetworkLayer

/// An HTTP/1.1 server on 127.0.0.1 for end-to-end tests of real HTTP clients.
///
/// ```swift
/// let server = MockServer()
/// try server.start()
/// server.enqueue(try .json(["id": 1]))
/// // … point the client at server.baseURL and run it …
/// let request = server.takeRequest(timeout: 5)
/// XCTAssertEqual(request?.path, "/users")
/// ```
///
/// **Which reply a request gets.** Replies queued with ``enqueue(_:)`` come first, in
/// order (FIFO). When the queue is empty the ``handler`` answers (500 if it throws).
/// Without a handler the reply is 404 with a short text body. Queued replies are consumed
/// across connections, in the order requests finish arriving. A request whose body the
/// ``bodyHandler`` takes is answered by its ``MockBodyReceiver`` instead.
///
/// **Recording.** Every request that parses is recorded before its reply is chosen, so
/// it is recorded even when its reply is a fault. Malformed requests get 400 (or 413 when
/// the body exceeds `maxRequestBodySize`), the connection closes, and they are not recorded.
///
/// **Threads.** One thread accepts connections and each connection gets its own thread.
/// All of them block only in `poll` on their socket and on a stop pipe, so `stop()` (and
/// `deinit`) wakes them, waits for them and closes every descriptor, also in the middle of
/// an endless streamed body. The one thing `stop()` cannot interrupt is a ``handler``, or
/// a stream's producer, that never returns; do not call `stop()` from inside either.
///
/// Thread-safe: use it from any thread.
public final class MockServer: Sendable {
    /// Answers a request when no reply is queued. Called on the connection's thread; an
    /// error it throws is answered with 500 and the error's description as the body.
    public typealias Handler = @Sendable (MockServerRequest) throws -> MockResponse

    /// Takes a request's body as it arrives, given the request's head (its body empty, its ``MockServerRequest/bodyLength``
    /// 0), by returning a receiver; `nil` leaves the request to the usual path. Called on the connection's thread.
    public typealias BodyHandler = @Sendable (MockServerRequest) -> MockBodyReceiver?

    /// The largest request body accepted; a larger one is answered with 413.
    public let maxRequestBodySize: Int

    private let state: ServerState
    /// The current run; `nil` while stopped.
    private let runtime = Locked<LoopbackListener?>(nil)

    /// A stopped server. `handler` answers requests when no reply is queued.
    ///
    /// With `discardsRequestBodies`, bodies are read and counted but not kept (``MockServerRequest/body``
    /// is empty, ``MockServerRequest/bodyLength`` says how many bytes came): for uploads of hundreds of
    /// megabytes, which would otherwise sit in memory.
    ///
    /// - Parameters:
    ///   - maxRequestBodySize: The largest request body accepted; a larger one is answered with 413.
    ///   - discardsRequestBodies: Whether bodies are counted instead of kept.
    ///   - handler: Answers requests when no reply is queued; `nil` answers 404.
    public init(
        maxRequestBodySize: Int = 16 * 1024 * 1024, discardsRequestBodies: Bool = false,
        handler: Handler? = nil
    ) {
        self.maxRequestBodySize = maxRequestBodySize
        state = ServerState(discardsBodies: discardsRequestBodies)
        state.currentHandler = handler
    }

    deinit {
        stop()
    }

    /// Binds 127.0.0.1 on a port the system picks and starts serving. Does nothing if the
    /// server is already running; after `stop()` it starts again on a new port.
    /// Throws ``MockServerError`` when a socket, pipe or bind call fails.
    public func start() throws {
        try runtime.withLock { runtime in
            guard runtime == nil else { return }
            runtime = try Self.listen(state: state, maxBodyBytes: maxRequestBodySize)
        }
    }

    /// A listener serving `state`'s script with MockServer's generous limits: tests send large heads and
    /// bodies, and slow or idle clients on purpose.
    private static func listen(state: ServerState, maxBodyBytes: Int) throws(MockServerError)
        -> LoopbackListener
    {
        var limits = LoopbackLimits()
        limits.maxRequestLineBytes = 64 * 1024
        limits.maxHeadBytes = 64 * 1024
        limits.maxBodyBytes = maxBodyBytes
        limits.idleTimeout = nil
        limits.requestTimeout = nil
        limits.maxConnections = nil
        let fixedLimits = limits
        do {
            return try LoopbackListener(
                name: "MockServer", maxConnections: nil, admit: { state.admitConnection() },
                serve: { socket, id in
                    Connection(socket: socket, id: id, state: state, limits: fixedLimits).run()
                })
        } catch {
            throw MockServerError(operation: error.operation, code: error.code)
        }
    }

    /// Stops serving: closes the listening socket and every open connection, interrupts
    /// delays and stalls, and returns once all the server's threads have finished.
    /// Calling it again, or on a server never started, does nothing. Scripted replies
    /// and recorded requests are kept.
    public func stop() {
        let running = runtime.withLock { runtime in
            defer { runtime = nil }
            return runtime
        }
        running?.shutdown()
    }

    /// Whether the server is between `start()` and `stop()`.
    public var isRunning: Bool { runtime.withLock { $0 != nil } }

    /// The port the server listens on; 0 when it is not running.
    public var port: Int { runtime.withLock { $0?.port ?? 0 } }

    /// `http://127.0.0.1:PORT`, without a trailing slash.
    public var baseURL: URL {
        // A literal scheme and host with a decimal port always parse; the fallback is unreachable.
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// `baseURL` followed by `pathAndQuery` (e.g. `"/users?page=2"`; a missing leading `/`
    /// is added); `nil` if the result is not a valid URL.
    ///
    /// - Parameter pathAndQuery: A path, optionally with a query.
    /// - Returns: The URL on this server, or `nil`.
    public func url(_ pathAndQuery: String) -> URL? {
        let separator = pathAndQuery.hasPrefix("/") || pathAndQuery.isEmpty ? "" : "/"
        return URL(string: "http://127.0.0.1:\(port)\(separator)\(pathAndQuery)")
    }

    /// Queues `response` as the reply to a future request, after those already queued.
    ///
    /// - Parameter response: The reply.
    public func enqueue(_ response: MockResponse) {
        state.enqueue([response])
    }

    /// Queues `responses`, in order, after those already queued.
    ///
    /// - Parameter responses: The replies, in order.
    public func enqueue(contentsOf responses: [MockResponse]) {
        state.enqueue(responses)
    }

    /// How many queued replies are still waiting for a request.
    public var queuedResponseCount: Int { state.queuedCount }

    /// Consulted first for every request, once its head has arrived: a request for which it returns a
    /// ``MockBodyReceiver`` has its body handed to that receiver piece by piece instead of kept (so a 1 GiB
    /// upload costs the server one piece of memory, and ``maxRequestBodySize`` does not apply), may be cut
    /// after a number of bytes, and is answered by the receiver, never by a queued reply or ``handler``. It
    /// is recorded once its body ends, however it ends, with ``MockServerRequest/bodyLength`` the bytes that
    /// arrived and an empty ``MockServerRequest/body``. `nil` (the default) reads every body as usual.
    /// Like ``handler``, it may be replaced at any time, and should not capture the server strongly.
    public var bodyHandler: BodyHandler? {
        get { state.currentBodyHandler }
        set { state.currentBodyHandler = newValue }
    }

    /// Answers requests when the queue is empty; `nil` means 404. May be replaced at any time.
    /// The server keeps the handler: a handler that captures the server strongly makes a
    /// cycle, and `deinit` then never stops it. Capture it weakly, or call `stop()`.
    public var handler: Handler? {
        get { state.currentHandler }
        set { state.currentHandler = newValue }
    }

    /// The oldest recorded request not yet taken, waiting up to `timeout` seconds for one
    /// to arrive; `nil` if none arrives in time. Each request is returned once.
    ///
    /// - Parameter timeout: The longest wait, in seconds.
    /// - Returns: The request, or `nil` if none arrived in time.
    public func takeRequest(timeout: TimeInterval = 5) -> MockServerRequest? {
        state.takeRequest(timeout: timeout)
    }

    /// How many requests the server has received and recorded so far (taken or not).
    public var requestCount: Int { state.requestCount }

    /// Every recorded request, oldest first, whether taken or not.
    public var recordedRequests: [MockServerRequest] { state.allRequests }
}
