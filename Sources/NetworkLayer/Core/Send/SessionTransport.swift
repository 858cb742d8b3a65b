import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends requests on one URLSession whose delegate routes each task's events to its ``Transfer``.
///
/// Tasks are delegate-driven, not completion-handler tasks: only the delegate sees the body as it
/// arrives, which is where a reply too large is stopped, the idle timeout is kept, and a challenge
/// FoundationNetworking would wait on forever is answered.
final class SessionTransport: Sendable {
    /// The session `NetworkLayer()` uses. Creating and tearing down sessions crashes libcurl under load
    /// on Linux, so layers without their own configuration share this one and never invalidate it.
    static let shared = SessionTransport(configuration: .default)
    /// The session streams of layers without their own configuration share, for the same reason.
    static let sharedStreams = SessionTransport(configuration: .default)

    let session: URLSession
    /// The session's delegate; tests watch it to see that an owned session was invalidated.
    let delegate: SessionDelegate
    /// Serial, and holding libcurl back when it falls behind (see ``BackPressureQueue``); owns every
    /// ``Transfer``.
    let delegateQueue: BackPressureQueue
    /// Why the layer can't run on the configuration it was given (a background one): every request then
    /// fails with ``NetworkError/invalidRequest(_:)`` saying so, and no session of that kind is made.
    let refusal: String?
    /// The session's cookie storage: the cookies it adds to each request, and on Linux the cookies
    /// replies set, which the layer stores; `nil` when the layer has nothing to do with either.
    let cookies: SessionCookies?
    private let nativeUploads = Locked(PlatformSession.sendsUploadsNatively)
    private let downloadDisk = Locked<any DownloadDisk>(FileSystemDisk())
    /// What answers the session's requests in process (a test's stub transport), which must live as long
    /// as the session can start a task: the layer and every request waiting to send an attempt hold
    /// the session, so they hold these too.
    let dependencies = Locked<[any Sendable]>([])

    /// Whether uploads go out as a file or bytes URLSession sends natively (an upload task) rather than
    /// as the layer's body stream: ``PlatformSession/sendsUploadsNatively``. Tests run that path on Linux
    /// by setting it on a layer's own session.
    var sendsUploadsNatively: Bool {
        get { nativeUploads.withLock { $0 } }
        set { nativeUploads.withLock { $0 = newValue } }
    }

    /// Where downloads write their files: the file system, or a test's slow or full disk (the seam where
    /// disk faults are injected). Read as each download opens its file.
    var disk: any DownloadDisk {
        get { downloadDisk.withLock { $0 } }
        set { downloadDisk.withLock { $0 = newValue } }
    }

    /// A session for a copy of `configuration`, with the changes the layer needs to keep its contract
    /// (see ``safeConfiguration(from:)``).
    init(configuration: URLSessionConfiguration) {
        delegate = SessionDelegate()
        delegateQueue = BackPressureQueue()
        delegateQueue.name = "NetworkLayer.SessionTransport"
        refusal = PlatformSession.unsupported(configuration)
        let safe = Self.safeConfiguration(from: refusal == nil ? configuration : .ephemeral)
        let keepsReplyCookies = PlatformSession.keepsCookies(of: safe)
        cookies = SessionCookies(configuration: safe, keepsReplyCookies: keepsReplyCookies)
        session = URLSession(configuration: safe, delegate: delegate, delegateQueue: delegateQueue)
    }

    /// A copy of `configuration` without a URL cache. With a cache, FoundationNetworking looks the
    /// request up on a background queue before the task's protocol exists, and a `cancel()` in that
    /// window stops the process ("Trying to access a behaviour for a task that in not in the
    /// registry"). Caching never served a reply on Linux anyway.
    static func safeConfiguration(from configuration: URLSessionConfiguration) -> URLSessionConfiguration {
        // `copy()` of a URLSessionConfiguration is always one; the fallback keeps the caller's object.
        let copy = configuration.copy() as? URLSessionConfiguration ?? configuration
        PlatformSession.adapt(copy)
        return copy
    }

    /// Starts `request` by `route`; `completion` runs once, on the session's delegate queue.
    ///
    /// - Parameters:
    ///   - route: Where the reply goes (and an upload's body comes from), and the size limit.
    ///   - redirectPolicy: Which redirects to follow, and with which headers.
    ///   - deadlines: Keeps the idle deadline, on the clock of the layer that sends the request.
    /// - Returns: A closure that cancels the request, safe to call from any thread, any number of times.
    func send(
        _ request: URLRequest, route: TransportRoute, redirectPolicy: RedirectPolicy,
        deadlines: DeadlineRegistry, completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        let transfer = Transfer(
            request, sink: route.makeSink(for: request, disk: disk), body: route.body,
            progress: route.progress,
            redirectPolicy: redirectPolicy, transport: self, deadlines: deadlines, completion: completion)
        transfer.start()
        return { transfer.stopFromAnyThread(because: nil) }
    }

    /// `request` with FoundationNetworking's own timeout well behind the layer's idle timer, which fires
    /// first: far enough behind that it can't fire while a redirect is being answered (which stops the
    /// process). Behind the longer of the request's timeout and `bodyIdleTimeout` (a stream's, which may
    /// be longer), since FoundationNetworking's is an idle timeout too.
    static func withBackstopTimeout(_ request: URLRequest, bodyIdleTimeout: TimeInterval? = nil) -> URLRequest
    {
        var request = request
        let idle = max(request.timeoutInterval, bodyIdleTimeout ?? 0)
        request.timeoutInterval = min(idle * 2 + 30, RequestBuilder.longestTimeout)
        return request
    }

    /// An owned session ends when nothing can start a task on it any more: its layer is gone, and so is
    /// every request still waiting to send an attempt (a retry's backoff, an interceptor), since each
    /// holds its transport. Creating a task on an invalidated session stops the process. Running tasks
    /// finish first. The shared session is never released.
    deinit {
        session.finishTasksAndInvalidate()
    }
}
