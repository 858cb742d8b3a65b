import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reconnects a server-sent event stream, as the last of its interceptors: every connection after the
/// first sends `Last-Event-ID`, and a connection that ended, was lost or fell idle is opened again after
/// the reconnection time, up to ``ServerSentEventsOptions/maximumReconnects`` times in a row without an
/// event. Once a stream has handed over an element, nothing else sends it again: the retry policy only
/// retries a stream that failed before its first element. Being an interceptor, a reconnection goes through the layer's own interceptors again (a fresh
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
        if reconnects, Self.reconnectsAfter(attempt.error) {
            // Reconnections are counted here; the retry policy must not add its own on top.
            guard state.claimReconnect(maximum: options.maximumReconnects) else {
                return completion(.fail(attempt.error))
            }
            let delay = state.retry ?? options.reconnectionDelay
            return completion(.retryAfter(min(max(0, delay), maximumDelay)))
        }
        // Sent again from the start, a stream would hand its elements over a second time; before the
        // first, the retry policy decides, as for any request.
        completion(state.eventCount == 0 ? .doNotRetry : .fail(attempt.error))
    }

    /// How many reconnections in a row this stream may make: attempts beyond the usual limit.
    /// Bounded so that the attempt limit it is added to can't overflow: `.max` means for ever.
    var reconnectLimit: Int { reconnects ? min(max(0, options.maximumReconnects), Int.max / 2) : 0 }

    static func reconnectsAfter(_ error: NetworkError) -> Bool {
        switch error {
        case .timedOut: true
        case .transport(let urlError): reconnectingCodes.contains(urlError.code)
        default: false
        }
    }
}
