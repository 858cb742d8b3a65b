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
    /// Whether replies come back on the thread that sent the attempt, inside the request method: the
    /// pipeline then decodes in place and runs interceptors where they are called, without a policy queue
    /// or waits between attempts, so a test double can answer before the request method returns.
    var answersInPlace: Bool { get }

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

extension SessionTransport: AttemptTransport {
    var answersInPlace: Bool { false }

    func addedCookieHeader(for request: URLRequest) -> String? {
        cookies?.header(for: request)
    }
}
