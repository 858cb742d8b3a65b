import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What the pipeline sends each attempt through: URLSession (``LayerSession``, in SessionTransport.swift)
/// or, for test doubles, in-process answers (``InProcessTransport``); everything around the send is the
/// same for both.
protocol AttemptTransport: Sendable {
    /// Why nothing can be sent at all; every request then fails with ``NetworkError/invalidRequest(_:)``.
    var refusal: String? { get }

    /// The `Cookie` field the transport adds to `request` (a session's storage), read now, to be passed
    /// back to ``send(_:route:redirectPolicy:priority:cookie:completion:)``; `nil` when it adds none.
    func pinnedCookie(for request: URLRequest) -> PinnedCookie?

    /// Starts `request` by `route`, carrying `cookie` (else whatever the transport adds when it goes out);
    /// `completion` runs once. Returns a cancel, callable anywhere, repeatedly.
    func send(
        _ request: URLRequest, route: TransportRoute, redirectPolicy: RedirectPolicy,
        priority: RequestPriority, cookie: PinnedCookie?,
        completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void
}
