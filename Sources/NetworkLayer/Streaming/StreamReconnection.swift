import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reconnects a server-sent event stream, as the last of its interceptors: every connection after the
/// first sends `Last-Event-ID`, and a connection that ended, was lost or fell idle is opened again after
/// the reconnection time, up to ``ServerSentEventsOptions/maximumReconnects`` times in a row without an
/// event. Being an interceptor, a reconnection goes through the layer's own interceptors again (a fresh
/// token) and monitors see it as a retry.
struct StreamReconnection: RequestInterceptor {
    let state: StreamState
    let options: ServerSentEventsOptions
    /// The longest wait the retry policy allows; a longer `retry:` is cut to it.
    let maximumDelay: TimeInterval
    let reconnects: Bool

    private static let reconnectingCodes: Set<URLError.Code> = [
        .networkConnectionLost, .notConnectedToInternet, .cannotConnectToHost, .timedOut, .cannotFindHost,
        .dnsLookupFailed, .secureConnectionFailed,
    ]

    func adapt(
        _ request: URLRequest, completion: @escaping @Sendable (Result<URLRequest, NetworkError>) -> Void
    ) {
        var request = request
        let id = state.lastEventID
        if !id.isEmpty { request.setValue(id, forHTTPHeaderField: "Last-Event-ID") }
        completion(.success(request))
    }

    func retry(_ attempt: FailedAttempt, completion: @escaping @Sendable (RetryDecision) -> Void) {
        guard reconnects, Self.reconnectsAfter(attempt.error),
            state.claimReconnect(maximum: options.maximumReconnects)
        else { return completion(.doNotRetry) }
        let delay = state.retry ?? options.reconnectionDelay
        completion(.retryAfter(min(max(0, delay), maximumDelay)))
    }

    static func reconnectsAfter(_ error: NetworkError) -> Bool {
        switch error {
        case .timedOut: true
        case .transport(let urlError): reconnectingCodes.contains(urlError.code)
        default: false
        }
    }
}
