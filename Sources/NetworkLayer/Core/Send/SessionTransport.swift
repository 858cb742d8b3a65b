import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests on one URLSession whose delegate routes each task's events to its ``Transfer``.
///
/// Why delegate-driven tasks: only the delegate sees the body as it arrives, where the size limit, the
/// idle timeout and the challenge FoundationNetworking would wait on forever are handled.
final class SessionTransport: Sendable {
    /// Why shared: creating and tearing down sessions crashes libcurl under load on Linux, so layers
    /// without their own configuration share this one and never invalidate it.
    static let shared = SessionTransport(configuration: .default)
    /// Shared by streams, for the same reason.
    static let sharedStreams = SessionTransport(configuration: .default)

    let session: URLSession
    /// Tests watch it to see that an owned session was invalidated.
    let delegate: SessionDelegate
    /// Owns every ``Transfer``.
    let delegateQueue: BackPressureQueue
    /// Why the layer can't run on the configuration it was given (a background one): every request then
    /// fails with ``NetworkError/invalidRequest(_:)`` saying so, and no session of that kind is made.
    let refusal: String?
    /// `nil` when the layer neither adds cookies nor stores the ones replies set.
    let cookies: SessionCookies?

    /// What answers requests in process (a test's stub transport): the layer and every request waiting to
    /// send an attempt hold the session, so they hold these too. Kept by the delegate, with the session's
    /// other mutable state.
    var dependencies: [any Sendable] {
        get { delegate.state.withLock { $0.dependencies } }
        set { delegate.state.withLock { $0.dependencies = newValue } }
    }

    /// Keeps `dependency` alive as long as the session (see ``NetworkLayer/keepAlive(_:)``).
    func keepAlive(_ dependency: any Sendable) {
        delegate.state.withLock { $0.dependencies.append(dependency) }
    }

    /// What this session's URLSession does (``PlatformFacts/current``); tests on Linux set Apple's facts
    /// where FoundationNetworking can behave so. Kept by the delegate, which reads them too.
    var facts: PlatformFacts {
        get { delegate.facts }
        set { delegate.facts = newValue }
    }

    /// See ``PlatformFacts/sendsUploadsNatively``; tests set it to run the native path on Linux.
    var sendsUploadsNatively: Bool {
        get { facts.sendsUploadsNatively }
        set { facts.sendsUploadsNatively = newValue }
    }

    /// A feature's test seam (a download's disk), kept per session (by the delegate) and opaque to the
    /// engine; `nil` for the real one.
    var downloadDisk: (any Sendable)? {
        get { delegate.state.withLock { $0.downloadDisk } }
        set { delegate.state.withLock { $0.downloadDisk = newValue } }
    }

    init(configuration: URLSessionConfiguration) {
        delegate = SessionDelegate()
        delegateQueue = BackPressureQueue()
        delegateQueue.name = "NetworkLayer.SessionTransport"
        refusal = PlatformSession.unsupported(configuration)
        // Why a copy without a URL cache: a `cancel()` while FoundationNetworking looks the request up on a
        // background queue stops the process (see <doc:LinuxNotes>).
        let given = refusal == nil ? configuration : .ephemeral
        let safe = given.copy() as? URLSessionConfiguration ?? given
        PlatformSession.adapt(safe)
        cookies = SessionCookies(configuration: safe)
        PlatformSession.handOverCookies(of: safe, facts: .current)
        session = URLSession(configuration: safe, delegate: delegate, delegateQueue: delegateQueue)
    }

    /// Puts FoundationNetworking's own (idle) timeout well behind the layer's idle timer, behind the longer
    /// of the request's and a stream's: firing while a redirect is answered would stop the process.
    static func withBackstopTimeout(_ request: URLRequest, bodyIdleTimeout: TimeInterval? = nil) -> URLRequest
    {
        var request = request
        let idle = max(request.timeoutInterval, bodyIdleTimeout ?? 0)
        request.timeoutInterval = min(idle * 2 + 30, RequestBuilder.longestTimeout)
        return request
    }

    /// Runs once no layer or waiting request holds the transport: a task created on an invalidated session
    /// stops the process. Running tasks finish first; the shared sessions are never released.
    deinit {
        session.finishTasksAndInvalidate()
        // The session keeps its delegate until invalidated, later; what answers in process goes with the
        // transport, as the layer and its requests let it go. Released here, outside the delegate's lock.
        let released = dependencies
        dependencies = []
        _ = released
    }
}

/// A session as one layer sends on it: its transfers' idle deadlines are timers of that layer's clock,
/// also on the session every layer without a configuration shares.
struct LayerSession: AttemptTransport {
    let session: SessionTransport
    /// The layer's clock, which keeps the idle deadlines of its transfers on `session`.
    let clock: any NetworkClock

    init(_ session: SessionTransport, clock: any NetworkClock) {
        self.session = session
        self.clock = clock
    }

    var refusal: String? { session.refusal }

    func pinnedCookie(for request: URLRequest) -> PinnedCookie? {
        session.cookies?.pinned(for: request)
    }

    func send(
        _ request: URLRequest, route: TransportRoute, redirectPolicy: RedirectPolicy,
        priority: RequestPriority, cookie: PinnedCookie?,
        completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        let transfer = Transfer(
            request, sink: route.makeSink(for: request, on: session), body: route.makeBody(),
            redirectPolicy: redirectPolicy, transport: session, clock: clock, cookie: cookie,
            completion: completion)
        transfer.priority = priority.rawValue
        transfer.start()
        return { transfer.stopFromAnyThread(because: nil) }
    }
}
