import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Watches what the layer does, request by request: for logging, analytics and debugging.
///
/// Eleven events, each with an empty default, so a monitor implements only what it needs:
///
/// | event | when |
/// |---|---|
/// | ``didCreate(_:)`` | the request begins, before anything waits: for a live view of queued requests |
/// | ``didBuild(_:for:)`` | an attempt's request is final (after the interceptors): what goes on the wire |
/// | ``didStart(_:)`` | the attempt is handed to the transport |
/// | ``didResendBody(for:)`` | the transport sent the attempt again by itself, body and all (a warning) |
/// | ``didReceive(_:body:for:)`` | a response arrived: status, headers and body |
/// | ``willRetry(_:after:because:)`` | a failed attempt will be sent again after a delay |
/// | ``didSendBodyData(_:for:)`` | an upload's body is going out: bytes so far |
/// | ``didWriteData(_:for:)`` | a download is being written to its file: bytes so far |
/// | ``didConfirmUploadOffset(_:of:at:)`` | a resumable upload's server said how much it holds |
/// | ``didKeepInMemoryOnly(_:because:)`` | a disk cache keeps such replies in memory only (a warning, said once) |
/// | ``didFinish(_:with:metrics:)`` | the request is over: its outcome and its metrics |
///
/// Events arrive in order on a serial queue of the layer's (never main, never the delegate queue);
/// ``didFinish(_:with:metrics:)`` comes last. A slow monitor delays only the monitors; none can change
/// an outcome.
public protocol NetworkMonitor: Sendable {
    /// The request begins: its method was called, and nothing was sent yet. It may wait on the policies (a
    /// token refresh) before its first attempt's ``didBuild(_:for:)`` and ``didStart(_:)``, and each
    /// attempt, once started, for a shared request or for its origin (a budget or a rate limit: see
    /// ``RequestMetrics/queuedDuration``). One of the attempt events (see ``observesAttempts``).
    ///
    /// - Parameter request: The request that begins.
    func didCreate(_ request: MonitoredRequest)
    /// An attempt's request is final: every interceptor has adapted it.
    ///
    /// - Parameters:
    ///   - request: The request as it goes on the wire, secrets included: redact before writing it.
    ///   - attempt: The request it belongs to, and the attempt's number.
    func didBuild(_ request: URLRequest, for attempt: MonitoredAttempt)
    /// The attempt is handed to the transport.
    ///
    /// - Parameter attempt: The request it belongs to, and the attempt's number.
    func didStart(_ attempt: MonitoredAttempt)
    /// A response arrived in full (body after gzip inflation), whatever its status. A reply cut off by a
    /// cancel, timeout, lost connection or the size limit gets no call: its error goes to the next events.
    ///
    /// - Parameters:
    ///   - response: The reply's status, headers and URL.
    ///   - body: The reply's body, after gzip inflation.
    ///   - attempt: The request it belongs to, and the attempt's number.
    func didReceive(_ response: HTTPURLResponse, body: Data, for attempt: MonitoredAttempt)
    /// The attempt failed with `error` and the request will be sent again after `delay` seconds.
    ///
    /// - Parameters:
    ///   - attempt: The attempt that failed.
    ///   - delay: Seconds until the next attempt is sent.
    ///   - error: Why the attempt failed.
    func willRetry(_ attempt: MonitoredAttempt, after delay: TimeInterval, because error: NetworkError)
    /// An upload's body is going out: what its progress handler is told (``TransferProgress``), as often
    /// and with the same figures, whether or not the request has one; the last call, once every byte went,
    /// comes before ``didFinish(_:with:metrics:)``, which tells the end. One of the attempt events.
    ///
    /// - Parameters:
    ///   - progress: The bytes sent so far, and the body's length.
    ///   - request: The upload.
    func didSendBodyData(_ progress: TransferProgress, for request: MonitoredRequest)
    /// A download is being written to its file: what its progress handler is told, as
    /// ``didSendBodyData(_:for:)`` is for an upload (a resumed download counts the bytes it had).
    ///
    /// - Parameters:
    ///   - progress: The bytes in the file so far, and the total when the server said it.
    ///   - request: The download.
    func didWriteData(_ progress: TransferProgress, for request: MonitoredRequest)
    /// A resumable upload's server holds `offset` bytes of the file: told when the upload is created (0),
    /// after each append it acknowledged, and when it was asked after an interruption. The upload's
    /// exchanges (creation, `HEAD`, `PATCH`) are requests of their own, with their events; after the
    /// creation their URL is `uploadURL`. One of the attempt events.
    ///
    /// - Parameters:
    ///   - offset: The bytes the server holds.
    ///   - length: The file's length: the upload is complete when `offset` reaches it.
    ///   - uploadURL: The upload's URL, which the server gave when it created it.
    func didConfirmUploadOffset(_ offset: Int64, of length: Int64, at uploadURL: URL)
    /// The request is over: a response (its raw body as `value`) or the error its handler receives.
    ///
    /// - Parameters:
    ///   - request: The request that finished.
    ///   - result: The response, with the raw body as its `value` whatever the handler's type, or the
    ///     error the handler receives (``NetworkError/cancelled`` included).
    ///   - metrics: What the request cost, over all its attempts.
    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics)

    /// The transport sent the attempt again by itself, on a new connection, with its body rewound:
    /// libcurl found the kept-alive connection it had sent on closed. The server may have received the
    /// request twice. Told when the attempt ends, before its reply; counted in
    /// ``RequestMetrics/bodyResends``. A request without a body is sent again unseen, and gets no call.
    ///
    /// - Parameter attempt: The attempt that went out again.
    func didResendBody(for attempt: MonitoredAttempt)
    /// A disk cache keeps `request`'s reply, and every reply like it, in memory only: after a relaunch it
    /// is gone. Told once per cache and reason, for the first request it happens to; the reason's
    /// description names the fix (an account, or the cache's `fingerprintKey`). See
    /// <doc:CachingAndOffline>.
    ///
    /// - Parameters:
    ///   - request: The request whose reply stayed off the disk.
    ///   - reason: Why, and what to change.
    func didKeepInMemoryOnly(_ request: MonitoredRequest, because reason: ResponseCache.MemoryOnlyReason)

    /// Whether this monitor wants the attempt events (``didCreate(_:)``, ``didBuild(_:for:)``,
    /// ``didStart(_:)``, ``didReceive(_:body:for:)``, ``willRetry(_:after:because:)``, and a transfer's
    /// ``didSendBodyData(_:for:)``, ``didWriteData(_:for:)``, ``didConfirmUploadOffset(_:of:at:)``); `true`
    /// by default. When every monitor says `false`, the layer skips them: one hop per request instead of
    /// four, and a transfer without a progress handler keeps no count for them. The warnings
    /// (``didResendBody(for:)``, ``didKeepInMemoryOnly(_:because:)``) and ``didFinish(_:with:metrics:)``
    /// come either way.
    var observesAttempts: Bool { get }
}

extension NetworkMonitor {
    /// `true`: the monitor is sent every event.
    public var observesAttempts: Bool { true }

    /// Does nothing.
    ///
    /// - Parameter request: The request that begins.
    public func didCreate(_ request: MonitoredRequest) {}

    /// Does nothing.
    ///
    /// - Parameters:
    ///   - request: The request as it goes on the wire.
    ///   - attempt: The request it belongs to, and the attempt's number.
    public func didBuild(_ request: URLRequest, for attempt: MonitoredAttempt) {}
    /// Does nothing.
    ///
    /// - Parameter attempt: The request it belongs to, and the attempt's number.
    public func didStart(_ attempt: MonitoredAttempt) {}
    /// Does nothing.
    ///
    /// - Parameters:
    ///   - response: The reply's status, headers and URL.
    ///   - body: The reply's body.
    ///   - attempt: The request it belongs to, and the attempt's number.
    public func didReceive(_ response: HTTPURLResponse, body: Data, for attempt: MonitoredAttempt) {}
    /// Does nothing.
    ///
    /// - Parameters:
    ///   - attempt: The attempt that failed.
    ///   - delay: Seconds until the next attempt.
    ///   - error: Why the attempt failed.
    public func willRetry(_ attempt: MonitoredAttempt, after delay: TimeInterval, because error: NetworkError)
    {}
    /// Does nothing.
    ///
    /// - Parameters:
    ///   - progress: The bytes sent so far, and the body's length.
    ///   - request: The upload.
    public func didSendBodyData(_ progress: TransferProgress, for request: MonitoredRequest) {}
    /// Does nothing.
    ///
    /// - Parameters:
    ///   - progress: The bytes in the file so far, and the total when known.
    ///   - request: The download.
    public func didWriteData(_ progress: TransferProgress, for request: MonitoredRequest) {}
    /// Does nothing.
    ///
    /// - Parameters:
    ///   - offset: The bytes the server holds.
    ///   - length: The file's length.
    ///   - uploadURL: The upload's URL.
    public func didConfirmUploadOffset(_ offset: Int64, of length: Int64, at uploadURL: URL) {}
    /// Does nothing.
    ///
    /// - Parameter attempt: The attempt that went out again.
    public func didResendBody(for attempt: MonitoredAttempt) {}
    /// Does nothing.
    ///
    /// - Parameters:
    ///   - request: The request whose reply stayed off the disk.
    ///   - reason: Why, and what to change.
    public func didKeepInMemoryOnly(
        _ request: MonitoredRequest, because reason: ResponseCache.MemoryOnlyReason
    ) {}
    /// Does nothing.
    ///
    /// - Parameters:
    ///   - request: The request that finished.
    ///   - result: The response or the error.
    ///   - metrics: What the request cost.
    public func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {}
}

/// The request an event belongs to.
public struct MonitoredRequest: Sendable, Hashable {
    /// Tells the events of one request from another's; unique within the process.
    public let id: UInt64
    /// The method.
    public let method: HTTPMethod
    /// The URL as built, before interceptors; `nil` when the request was refused before it had one.
    public let url: URL?
    /// Whether the layer sent this request itself, in the background, to refresh a stored reply it served
    /// within the reply's `stale-while-revalidate` window (see <doc:CachingAndOffline>). No handler of the
    /// app's waits for it.
    public let isRevalidation: Bool
    /// Header names (lowercased) the request's layer treats as credentials besides the library's own
    /// (`Authorization`, `Cookie`, `X-Api-Key`, …): its ``RedirectPolicy/credentialHeaders`` and the
    /// request's. A monitor that writes headers redacts these too, as ``NetworkLogger`` does.
    public let credentialHeaders: Set<String>
    /// The account the request is for, as it began: its own (``NetworkRequest/account``), else the first
    /// ``BearerTokenAuthenticator`` naming one, else the layer's (``NetworkLayer/account``); `nil` for none.
    /// The cache keeps each account's replies apart (see <doc:CachingAndOffline>).
    public let account: String?
}

/// One attempt of a request: the first, or a retry.
public struct MonitoredAttempt: Sendable, Hashable {
    /// The request the attempt belongs to.
    public let request: MonitoredRequest
    /// 1 for the first attempt.
    public let number: Int
}
