import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the pipeline sends each attempt through: a URLSession (``SessionTransport``) or, for the test
/// doubles, answers given in process (``InProcessTransport``). Everything before and after the send
/// (building, interceptors, retries, validation, decoding, delivery, monitors) is the same for both.
protocol AttemptTransport: Sendable {
    /// Why nothing can be sent at all; every request then fails with ``NetworkError/invalidRequest(_:)``.
    var refusal: String? { get }

    /// The `Cookie` field the transport itself adds to `request` as it sends it (a session's cookie
    /// storage), which the request doesn't show; `nil` for none.
    func addedCookieHeader(for request: URLRequest) -> String?

    /// Starts `request` by `route`; `completion` runs once.
    ///
    /// - Returns: A closure that cancels the request, safe to call from any thread, any number of times.
    func send(
        _ request: URLRequest, route: TransportRoute, redirectPolicy: RedirectPolicy,
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
        completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        session.send(
            request, route: route, redirectPolicy: redirectPolicy, deadlines: deadlines,
            completion: completion)
    }
}
