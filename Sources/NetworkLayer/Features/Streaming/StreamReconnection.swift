import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Reconnects a server-sent event stream as its last interceptor (so a reconnection gets a fresh token
/// and monitors see a retry), sending `Last-Event-ID`, up to ``ServerSentEventsOptions/maximumReconnects``
/// in a row. The wait never drops below the floor and doubles in a row, so a server answering `retry: 0`
/// and a close ends with ``NetworkError/tooManyReconnects(_:)``. Streams that delivered aren't resent.
struct StreamReconnection: RequestInterceptor {
    /// How long a connection with events must last to be kept; a shorter one counts as failed.
    static let keptConnectionDuration: TimeInterval = 1

    let state: StreamState
    let options: ServerSentEventsOptions
    /// The retry policy's longest wait caps `retry:` and the backoff; it is raised to the floor, else a
    /// policy allowing shorter waits would make a tight loop.
    let maximumDelay: TimeInterval
    let reconnects: Bool

    init(state: StreamState, options: ServerSentEventsOptions, maximumDelay: TimeInterval, reconnects: Bool) {
        self.state = state
        self.options = options
        self.maximumDelay =
            reconnects ? max(maximumDelay, options.effectiveMinimumReconnectionDelay) : maximumDelay
        self.reconnects = reconnects
    }

    private static let reconnectingCodes = RetryPolicy.retriedTransportCodes.union([.secureConnectionFailed])

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
        // Resent from the start, a stream would repeat its elements; before the first, the policy decides.
        completion(state.eventCount == 0 ? .doNotRetry : .fail(attempt.error))
    }

    func delay(inARow: Int) -> TimeInterval {
        let requested = state.retry ?? options.reconnectionDelay
        let floor = options.effectiveMinimumReconnectionDelay
        let base = requested.isNaN ? floor : max(floor, requested)
        let backoff = Backoff(initialDelay: base, maximumDelay: maximumDelay, minimumDelay: floor)
        // Endless only with an endless maximum: then the wait is that.
        return backoff.delay(afterFailures: inARow) ?? maximumDelay
    }

    /// Reconnections allowed in a row, bounded so the attempt limit can't overflow (`.max`: for ever).
    var reconnectLimit: Int { reconnects ? min(max(0, options.maximumReconnects), Int.max / 2) : 0 }

    static func reconnectsAfter(_ error: NetworkError) -> Bool {
        switch error {
        case .timedOut: true
        case .transport(let urlError): reconnectingCodes.contains(urlError.code)
        default: false
        }
    }
}
