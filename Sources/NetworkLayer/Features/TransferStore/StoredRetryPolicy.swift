import Foundation

/// A ``RetryPolicy`` as a ``TransferRecord`` keeps it, so a transfer resumed at a later launch is retried
/// as it was when sent.
struct StoredRetryPolicy: Codable, Sendable, Equatable {
    var maximumAttempts: Int
    var initialDelay: TimeInterval
    var maximumDelay: TimeInterval
    var retriesNonIdempotentRequests: Bool

    /// `nil` for a policy with an endless or NaN delay, which JSON can't hold: such a transfer resumes with
    /// the layer's policy.
    init?(_ policy: RetryPolicy) {
        guard policy.initialDelay.isFinite, policy.maximumDelay.isFinite else { return nil }
        maximumAttempts = policy.maximumAttempts
        initialDelay = policy.initialDelay
        maximumDelay = policy.maximumDelay
        retriesNonIdempotentRequests = policy.retriesNonIdempotentRequests
    }

    var policy: RetryPolicy {
        RetryPolicy(
            maximumAttempts: maximumAttempts, initialDelay: initialDelay, maximumDelay: maximumDelay,
            retriesNonIdempotentRequests: retriesNonIdempotentRequests)
    }
}
