import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reconnects a server-sent event stream, as the last of its interceptors: every connection after the
/// first sends `Last-Event-ID`, and a connection that ended, was lost or fell idle is opened again after
/// the reconnection time, up to ``ServerSentEventsOptions/maximumReconnects`` times in a row without a
/// connection worth keeping (see ``keptConnectionDuration``). Once a stream has handed over an element,
/// nothing else sends it again: the retry policy only retries a stream that failed before its first
/// element. Being an interceptor, a reconnection goes through the layer's own interceptors again (a
/// fresh token) and monitors see it as a retry.
///
/// The wait is never below ``ServerSentEventsOptions/minimumReconnectionDelay``, whatever `retry:`
/// says, and doubles with each reconnection in a row: a server that answers every connection with
/// `retry: 0`, one event and a close gets a few connections, further and further apart, then the stream
/// fails with ``NetworkError/tooManyReconnects(_:)``.
struct StreamReconnection: RequestInterceptor {
    /// How long a connection that had events must have lasted to be worth keeping: one that ends
    /// sooner counts as failed, so the reconnections around it count on and back off.
    static let keptConnectionDuration: TimeInterval = 1

    let state: StreamState
    let options: ServerSentEventsOptions
    /// The longest wait the retry policy allows; a longer `retry:` or backoff is cut to it.
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
            switch state.claimReconnect(
                maximum: options.maximumReconnects, keptAfter: Self.keptConnectionDuration)
            {
            case .granted(let inARow):
                return completion(.retryAfter(delay(inARow: inARow)))
            case .exhausted(storm: true):
                return completion(.fail(.tooManyReconnects(options.maximumReconnects)))
            case .exhausted(storm: false):
                return completion(.fail(attempt.error))
            }
        }
        // Sent again from the start, a stream would hand its elements over a second time; before the
        // first, the retry policy decides, as for any request.
        completion(state.eventCount == 0 ? .doNotRetry : .fail(attempt.error))
    }

    /// The wait before the `inARow`th reconnection in a row: the reconnection time, at least the
    /// floor, doubled for each earlier one of the run, at most `maximumDelay` (which the stream raises to
    /// the floor).
    func delay(inARow: Int) -> TimeInterval {
        let requested = state.retry ?? options.reconnectionDelay
        let floor = options.effectiveMinimumReconnectionDelay
        let base = requested.isNaN ? floor : max(floor, requested)
        // 2^30 times any floor is beyond every sensible maximum, and keeps the power finite.
        let backoff = base * pow(2, Double(min(max(0, inARow - 1), 30)))
        return max(floor, min(backoff, maximumDelay))
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
