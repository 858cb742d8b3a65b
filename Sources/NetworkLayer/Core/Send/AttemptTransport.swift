import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the pipeline sends each attempt through: URLSession (``SessionTransport``) or, for test doubles,
/// in-process answers (``InProcessTransport``); everything around the send is the same for both.
protocol AttemptTransport: Sendable {
    /// Why nothing can be sent at all; every request then fails with ``NetworkError/invalidRequest(_:)``.
    var refusal: String? { get }
    /// Whether replies come back inside the request method: the pipeline then decodes in place and skips
    /// the policy queue and retry waits, so a test double can answer before the method returns.
    var answersInPlace: Bool { get }

    /// The `Cookie` field the transport adds while sending (a session's storage); `nil` for none.
    func addedCookieHeader(for request: URLRequest) -> String?

    /// Starts `request` by `route`; `completion` runs once. Returns a cancel, callable anywhere, repeatedly.
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
