import Foundation

/// What an attempt's outcome means for its item.
enum OutboxVerdict: Equatable {
    /// Keep it and send it again: after the server's `Retry-After` when it gave one, else after the backoff.
    case retry(after: TimeInterval?)
    /// The server refused it for good, or it can't be sent: a dead letter.
    case reject

    private static let transientStatuses: Set<Int> = [408, 429]

    /// The verdict on a failed attempt; `now` is the clock's date, which a `Retry-After` date is read
    /// against.
    init(_ error: NetworkError, now: Date) {
        switch error {
        case .unacceptableStatusCode(let status, _, let headers)
        where Self.transientStatuses.contains(status) || (500..<600).contains(status):
            self = .retry(after: RetryPolicy.retryAfter(in: headers.fields, now: now))
        case .unacceptableStatusCode(409, _, let headers):
            // The key's first request is still being handled (the idempotency draft's 409): the server
            // says when to come back. Without `Retry-After` it is a conflict of the app's data.
            self = RetryPolicy.retryAfter(in: headers.fields, now: now).map { .retry(after: $0) } ?? .reject
        case .rateLimited(let until):
            // The layer's scheduler holds the origin past the attempt's time limit: come back then.
            self = .retry(after: max(0, until.timeIntervalSince(now)))
        case .transport, .timedOut, .cancelled, .invalidResponse:
            // Nothing the server decided about this item: the network, a restart, a cancelAll().
            self = .retry(after: nil)
        default:
            self = .reject
        }
    }
}
