import Foundation

extension NetworkLogger {
    /// At every level but ``Level/errors`` (the request may well succeed): a line saying that the transport
    /// had to send the attempt again by itself, so that the server may have received it twice (or, for a
    /// body that can't be given again, once, before the attempt failed).
    ///
    /// - Parameter attempt: The attempt that went out again.
    public func didResendBody(for attempt: MonitoredAttempt) {
        guard level != .errors else { return }
        let request = attempt.request
        sink(
            "⚠ #\(request.id).\(attempt.number) \(request.method.rawValue) \(redacted(request.url)): the "
                + "connection closed as it went out, and the transport asked for its body to send it again on a "
                + "new one; the server may have received it already (send an idempotency key)")
    }

    /// At every level, once per cache and reason: a line saying that the disk cache keeps such replies in
    /// memory only, and what to change.
    ///
    /// - Parameters:
    ///   - request: The request whose reply stayed off the disk.
    ///   - reason: Why, and the fix the line names.
    public func didKeepInMemoryOnly(
        _ request: MonitoredRequest, because reason: ResponseCache.MemoryOnlyReason
    ) {
        sink(
            "⚠ #\(request.id) \(request.method.rawValue) \(redacted(request.url)): the disk cache keeps this "
                + "reply in memory only, gone after a relaunch. \(reason.description)")
    }
}
