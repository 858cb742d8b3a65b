import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A layer's monitors and the serial queue their events run on, off the main, delegate and handler queues.
package final class MonitorGroup: Sendable {
    private let monitors: [any NetworkMonitor]
    private let queue: DispatchQueue
    /// Whether any monitor wants attempt events; if none does, a request takes one hop instead of three.
    package let wantsAttemptEvents: Bool

    /// `nil` without monitors: then nothing is measured, allocated or dispatched for them.
    package convenience init?(_ monitors: [any NetworkMonitor], on queue: DispatchQueue = Queues.monitors()) {
        guard !monitors.isEmpty else { return nil }
        self.init(layer: nil, adding: monitors, on: queue)
    }

    /// `layer`'s monitors plus a request's own (`extra`, not empty), on the layer's queue even when the
    /// layer has none (a monitor shared by requests relies on one serial queue).
    package init(layer: MonitorGroup?, adding extra: [any NetworkMonitor], on queue: DispatchQueue) {
        monitors = (layer?.monitors ?? []) + extra
        self.queue = queue
        wantsAttemptEvents = monitors.contains { $0.observesAttempts }
    }

    /// Tells every monitor `event` on the group's queue, if `condition`, asked there, holds.
    package func emit(
        if condition: @escaping @Sendable () -> Bool = { true },
        _ event: @escaping @Sendable (any NetworkMonitor) -> Void
    ) {
        queue.async { [monitors] in
            guard condition() else { return }
            for monitor in monitors { event(monitor) }
        }
    }

    package func channel() -> Channel {
        Channel(group: self)
    }

    /// One request's events, in order, none after its `didFinish`: a reply that raced a `cancel()` isn't
    /// reported once the monitors were told it was cancelled.
    package struct Channel: Sendable {
        fileprivate let group: MonitorGroup
        /// Claimed by the finishing event (shared by the copies); read and claimed on the group's serial
        /// queue only.
        fileprivate let finished = Once()

        /// Whether any monitor wants the attempt events (``emit(_:)`` sends nothing otherwise).
        package var observesAttempts: Bool { group.wantsAttemptEvents }

        package func emit(_ event: @escaping @Sendable (any NetworkMonitor) -> Void) {
            if group.wantsAttemptEvents { warn(event) }
        }

        /// An event every monitor is sent, whether or not it observes attempts: a warning. With `claim`,
        /// sent only if it returns `true`, called only once the request is known not to have finished: a
        /// warning told once (per cache and reason) is used up only when monitors hear it.
        package func warn(
            claiming claim: (@Sendable () -> Bool)? = nil,
            _ event: @escaping @Sendable (any NetworkMonitor) -> Void
        ) {
            group.emit(if: { [finished] in !finished.isClaimed && claim?() ?? true }, event)
        }

        package func finish(_ event: @escaping @Sendable (any NetworkMonitor) -> Void) {
            group.emit(if: { [finished] in finished.claim() }, event)
        }
    }

    private static let lastID = Locked<UInt64>(0)

    package static func nextID() -> UInt64 {
        lastID.withLock { id in
            id += 1
            return id
        }
    }
}

extension MonitoredRequest {
    /// The request an event belongs to; test doubles make them too.
    package init(method: HTTPMethod, url: URL?, credentialHeaders: Set<String> = [], account: String? = nil) {
        self.init(
            id: MonitorGroup.nextID(), method: method, url: url, isRevalidation: false,
            credentialHeaders: credentialHeaders, account: account)
    }

    /// The request an event of `request`, built for `url`, belongs to; `credentialHeaders` is the
    /// request's list (``NetworkLayer/credentialHeaders(for:)``), `account` the one it is for.
    init<Value>(
        _ request: NetworkRequest<Value>, url: URL?, credentialHeaders: CredentialHeaderNames,
        account: String?
    ) {
        self.init(
            id: MonitorGroup.nextID(), method: request.method, url: url,
            isRevalidation: request.isRevalidation, credentialHeaders: credentialHeaders.extra,
            account: account)
    }
}

/// Who watches a call's attempts (its monitors), told in order.
struct MonitoredCall: Sendable {
    let channel: MonitorGroup.Channel
    let request: MonitoredRequest

    func attemptStarted(_ urlRequest: URLRequest, number: Int) {
        let attempt = MonitoredAttempt(request: request, number: number)
        channel.emit {
            $0.didBuild(urlRequest, for: attempt)
            $0.didStart(attempt)
        }
    }

    /// A reply arrived in full.
    func attemptReceived(_ response: HTTPURLResponse, body: Data, number: Int) {
        let attempt = MonitoredAttempt(request: request, number: number)
        channel.emit { $0.didReceive(response, body: body, for: attempt) }
    }

    func attemptWillRetry(number: Int, after delay: TimeInterval, because error: NetworkError) {
        let attempt = MonitoredAttempt(request: request, number: number)
        channel.emit { $0.willRetry(attempt, after: delay, because: error) }
    }

    /// A transfer's progress, as its handler is told it: sent for an upload, written for a download.
    func transferred(_ progress: TransferProgress, isUpload: Bool) {
        let request = request
        channel.emit {
            if isUpload {
                $0.didSendBodyData(progress, for: request)
            } else {
                $0.didWriteData(progress, for: request)
            }
        }
    }

    /// The transport sent the attempt's body again by itself (libcurl, on a kept-alive connection that
    /// turned out closed).
    func attemptResentBody(number: Int) {
        let attempt = MonitoredAttempt(request: request, number: number)
        channel.warn { $0.didResendBody(for: attempt) }
    }

    /// The call's reply went to the cache's memory only, for `reason`: said once per cache and reason, by
    /// the first call whose monitors hear it, which `claim` tells (see ``ResponseCache/MemoryOnlyReport``).
    func cacheKeptInMemoryOnly(
        because reason: ResponseCache.MemoryOnlyReason, claim: @escaping @Sendable () -> Bool
    ) {
        let request = request
        channel.warn(claiming: claim) { $0.didKeepInMemoryOnly(request, because: reason) }
    }
}

/// What only a monitored request measures, in uptime nanoseconds: the interceptors' rounds
/// (``RequestMetrics/policyWaitDuration``), decoding (``RequestMetrics/decodeDuration``) and delivery
/// (``RequestMetrics/deliveryDuration``). A request's task holds one, under its lock, only when monitors
/// watch it: any other carries none of it.
struct MonitoredTimes {
    var policyWait: UInt64 = 0
    /// When the round of the interceptors under way began: one no answer ends still counts.
    var policyWaitSince: UInt64?
    /// When the final reply reached the end of the chain, and when the outcome was settled.
    var replyAt: UInt64?
    var settledAt: UInt64?

    /// A round of the interceptors begins (`true`) or ends, `now`.
    mutating func policyRound(begins: Bool, now: UInt64) {
        if !begins, let since = policyWaitSince { policyWait += now - min(since, now) }
        policyWaitSince = begins ? now : nil
    }

    /// Puts the times, as of `now`, in `metrics`.
    func add(to metrics: inout RequestMetrics, now: UInt64) {
        let settledAt = settledAt ?? now
        let open = policyWaitSince.map { settledAt - min($0, settledAt) } ?? 0
        metrics.policyWaitDuration = RequestTask.seconds(policyWait + open)
        metrics.deliveryDuration = RequestTask.seconds(now - min(settledAt, now))
        if let replyAt { metrics.decodeDuration = RequestTask.seconds(settledAt - min(replyAt, settledAt)) }
    }

    /// `metrics`, taken when a success was decoded (those its handler sees), with the delivery until `now`.
    func delivered(_ metrics: RequestMetrics, now: UInt64) -> RequestMetrics {
        guard let settledAt else { return metrics }
        var delivered = metrics
        delivered.deliveryDuration = RequestTask.seconds(now - min(settledAt, now))
        delivered.duration += delivered.deliveryDuration
        return delivered
    }
}
