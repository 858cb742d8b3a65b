import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the pipeline sends each attempt through: URLSession (``SessionTransport``) or, for test doubles,
/// in-process answers (``InProcessTransport``); everything around the send is the same for both.
protocol AttemptTransport: Sendable {
    /// Why nothing can be sent at all; every request then fails with ``NetworkError/invalidRequest(_:)``.
    var refusal: String? { get }

    /// The `Cookie` field the transport adds while sending (a session's storage); `nil` for none.
    func addedCookieHeader(for request: URLRequest) -> String?

    /// Starts `request` by `route`; `completion` runs once. Returns a cancel, callable anywhere, repeatedly.
    func send(
        _ request: URLRequest, route: TransportRoute, redirectPolicy: RedirectPolicy,
        priority: RequestPriority,
        completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void
}

/// A session as one layer sends on it: its transfers' idle deadlines are kept on that layer's clock,
/// also on the session every layer without a configuration shares.
struct LayerSession: AttemptTransport {
    let session: SessionTransport
    /// The layer's idle deadlines on `session`, swept on its delegate queue.
    let deadlines: DeadlineRegistry

    /// `session`, with deadlines on `clock` swept on its delegate queue.
    init(_ session: SessionTransport, clock: any NetworkClock) {
        let queue = session.delegateQueue
        self.init(session, deadlines: DeadlineRegistry(clock: clock) { queue.enqueue($0) })
    }

    init(_ session: SessionTransport, deadlines: DeadlineRegistry) {
        self.session = session
        self.deadlines = deadlines
    }

    var refusal: String? { session.refusal }

    func addedCookieHeader(for request: URLRequest) -> String? {
        session.cookies?.header(for: request)
    }

    func send(
        _ request: URLRequest, route: TransportRoute, redirectPolicy: RedirectPolicy,
        priority: RequestPriority,
        completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        session.send(
            request, route: route, redirectPolicy: redirectPolicy, priority: priority, deadlines: deadlines,
            completion: completion)
    }
}
