import Foundation

/// The delivery stage: a one-shot latch so exactly one handler runs, once, on the callback queue, in
/// whatever order the reply, a failure and `cancel()` arrive. Test doubles use it too (``CallbackDelivery``).
/// Handlers are released once one has run, so a kept task doesn't keep what they captured. It also meters
/// the request for ``RequestMetrics`` across its attempts, with the layer's monotonic clock, under the same
/// lock: events come from different queues (caller, policy, delegate).
final class RequestTask: NetworkTask, Sendable {
    // Handlers run only where `delivery` runs them, never under the state's lock.
    private let state: Locked<State>
    private let delivery: CallbackDelivery
    /// Why: when a cancelled download's handler runs, its partial file is complete on disk for
    /// ``NetworkLayer/partialDownloadSize(for:)``.
    private let cancelWaitsForTransport: Bool
    /// For monitors: the raw response on success.
    private let report: (@Sendable (Result<NetworkResponse<Data>, NetworkError>, RequestMetrics) -> Void)?
    /// The layer's clock: the metrics' times, and the policy stage's waits and limits are its timers.
    let clock: any NetworkClock
    /// When the request began, for its metrics.
    private let started: (date: Date, uptime: UInt64)
    /// A stream's count of delivered elements; `nil` for any other request.
    private let eventCount: (@Sendable () -> Int)?

    private struct State {
        var failureHandler: ((NetworkError) -> Void)?
        var phase = Phase.running
        var attempt = 0
        /// The attempt in flight, until ``transportFinished(metering:)``: its cancel once linked, and what it
        /// reports to (a composed call's step handlers), given up then.
        var inFlight: (cancel: (@Sendable () -> Void)?, handlers: Any?)?
        var deliveryAwaitsTransport = false
        /// The total time limit's timer, and when it ends.
        var totalLimit: (timer: any ClockTimer, deadline: DispatchTime)?
        var priority: RequestPriority
        /// Told each new priority: where the request waits for its server, if it does.
        var priorityObserver: (@Sendable (RequestPriority) -> Void)?
        var meter = Meter()
        /// Only when monitors watch (``report``): what only they measure.
        var monitored: MonitoredTimes?
    }

    /// What the request's metrics count. Its attempts are those on the wire: a wait between them begins and
    /// ends as one (``wait(_:on:queue:then:)``), as does a composed call's step, but isn't metered.
    private struct Meter {
        var attempts = 0
        var attemptStart: UInt64 = 0
        var firstByte: UInt64?
        var bytesSent = 0
        var bytesReceived = 0
        /// Waiting for the server, in all; of it, held by a rate limit.
        var queued: UInt64 = 0
        var rateLimited: UInt64 = 0
        var bodyResends = 0
        var sharedCallers = 1
        var cache: TransferResult.CacheAnswer?
    }

    private enum Phase {
        case running
        /// The outcome is decided and a delivery is scheduled; `cancel()` may still replace it.
        case settled(Outcome)
        case delivered
    }

    private enum Outcome {
        case success(() -> Void, NetworkResponse<Data>?)
        case failure(NetworkError)
    }

    init(
        delivery: CallbackDelivery, failureHandler: @escaping (NetworkError) -> Void,
        report: (@Sendable (Result<NetworkResponse<Data>, NetworkError>, RequestMetrics) -> Void)? = nil,
        cancelWaitsForTransport: Bool = false, priority: RequestPriority = .default, clock: any NetworkClock,
        eventCount: (@Sendable () -> Int)? = nil
    ) {
        self.cancelWaitsForTransport = cancelWaitsForTransport
        self.delivery = delivery
        let monitored = report == nil ? nil : MonitoredTimes()
        self.state = Locked(State(failureHandler: failureHandler, priority: priority, monitored: monitored))
        self.report = report
        self.clock = clock
        started = (clock.date, clock.now.uptimeNanoseconds)
        self.eventCount = eventCount
    }

    var isSettled: Bool {
        state.withLock {
            if case .running = $0.phase { return false }
            return true
        }
    }

    var priority: RequestPriority {
        get { state.withLock { $0.priority } }
        set {
            let observer = state.withLock { state in
                state.priority = newValue
                return state.priorityObserver
            }
            observer?(newValue)
        }
    }

    /// Tells `observer` each priority set from now on (replacing the one told before).
    func observePriority(_ observer: (@Sendable (RequestPriority) -> Void)?) {
        state.withLock { $0.priorityObserver = observer }
    }

    /// When the request's total time limit ends it (see ``limitTotalTime(to:on:)``); `nil` for none.
    var deadline: DispatchTime? { state.withLock { $0.totalLimit?.deadline } }

    /// `nil` once cancelled (a cancel after the attempt loop last looked), so nothing is sent. Every attempt
    /// that begins ends with ``transportFinished(metering:)``: a cancelled download's handler waits for it.
    ///
    /// - Parameters:
    ///   - handlers: What the attempt reports to, held here until ``transportFinished(metering:)`` hands
    ///     them to the first to call it. Why: a transport may hold a finished attempt's closures a moment
    ///     after it reported, and must not keep what they capture alive so.
    ///   - bodyBytes: For an attempt on the wire, which the metrics count, the size of its body.
    /// - Returns: The number to attach the attempt's cancel action with (``child``), and the number of the
    ///   latest attempt on the wire (1 for the first).
    func beginAttempt(reportingTo handlers: Any? = nil, sending bodyBytes: Int? = nil)
        -> (child: Int, attempt: Int)?
    {
        let now = bodyBytes == nil ? 0 : clock.now.uptimeNanoseconds
        return state.withLock { state in
            guard case .running = state.phase else { return nil }
            state.attempt += 1
            state.inFlight = (nil, handlers)
            if let bodyBytes {
                state.meter.attempts += 1
                (state.meter.attemptStart, state.meter.firstByte) = (now, nil)
                // The latest attempt's count: one going alone after a shared one served its caller only.
                state.meter.sharedCallers = 1
                state.meter.bytesSent += bodyBytes
            }
            return (state.attempt, state.meter.attempts)
        }
    }

    /// Links attempt `number`'s cancel action; a cancelled task stops it at once. An attempt that already
    /// ended or was superseded before `send` returned is not linked: it would replace the running one's.
    func attach(cancellingWith cancelTransport: @escaping @Sendable () -> Void, toAttempt number: Int) {
        let cancelNow = state.withLock { state in
            guard number == state.attempt, state.inFlight != nil else { return false }
            guard case .running = state.phase else { return true }
            state.inFlight?.cancel = cancelTransport
            return false
        }
        if cancelNow { cancelTransport() }
    }

    /// Why: the session task is released where the transport finished, not on the callback queue.
    ///
    /// - Parameter result: An attempt on the wire's result, which the metrics count.
    /// - Returns: The attempt's handlers (see ``beginAttempt(reportingTo:sending:)``), to the first caller
    ///   only.
    @discardableResult
    func transportFinished(metering result: TransferResult? = nil) -> Any? {
        let (deliverNow, handlers) = state.withLock { state in
            if let result {
                state.meter.firstByte = result.respondedAt
                // A reply from the cache received no body over the network.
                if case .network = result.cacheStatus {
                    state.meter.bytesReceived += result.body.count + Int(result.storedBytes)
                }
                state.meter.bodyResends += result.bodyResends
                state.meter.cache = result.cacheAnswer
            }
            defer { (state.deliveryAwaitsTransport, state.inFlight) = (false, nil) }
            return (state.deliveryAwaitsTransport, state.inFlight?.handlers)
        }
        if deliverNow { delivery.run { self.deliver() } }
        return handlers
    }

    /// The number of the latest attempt on the wire, as ``beginAttempt(reportingTo:sending:)`` gave it; 0
    /// before the first.
    var latestAttempt: Int { state.withLock { $0.meter.attempts } }

    /// The request waited for its server from `queuedAt` (read on the layer's clock, as the task's is)
    /// until now, before an attempt: behind its origin's budget, but for the time a rate limit held the
    /// origin (`rateLimited` nanoseconds). A `queuedAt` ahead of now counts as no wait, not a trap.
    func addQueued(since queuedAt: DispatchTime, rateLimited: UInt64) {
        let start = queuedAt.uptimeNanoseconds
        let nanoseconds = max(clock.now.uptimeNanoseconds, start) - start
        addShared(queued: (nanoseconds, min(rateLimited, nanoseconds)), callers: nil)
    }

    /// An attempt ended in a reply shared by `callers` (this one included; `nil`: not shared), which waited
    /// `queued` for its server. (`SharingStage` calls it only when there is something to add, so a caller
    /// alone that didn't wait takes no lock.)
    func addShared(queued: Queued, callers: Int?) {
        state.withLock { state in
            state.meter.queued += queued.nanoseconds
            state.meter.rateLimited += queued.rateLimited
            if let callers { state.meter.sharedCallers = callers }
        }
    }

    /// How long the request waited for its server so far: a shared request's time, for each of its callers.
    var queued: Queued { state.withLock { ($0.meter.queued, $0.meter.rateLimited) } }

    /// Nanoseconds waiting for the server, and of them, held by a rate limit.
    typealias Queued = (nanoseconds: UInt64, rateLimited: UInt64)

    /// Whether the request's monitors want what only they measure (``RequestMetrics/policyWaitDuration``,
    /// ``RequestMetrics/decodeDuration``, ``RequestMetrics/deliveryDuration``).
    var measuresForMonitors: Bool { report != nil }

    /// A round of the interceptors begins (`true`) or ends (see ``RequestMetrics/policyWaitDuration``).
    /// One that never ends (a time limit or a cancel ended the request) counts until the outcome.
    func policyRound(begins: Bool) {
        let now = clock.now.uptimeNanoseconds
        state.withLock { $0.monitored?.policyRound(begins: begins, now: now) }
    }

    /// The final reply reached the end of the chain, to be validated and decoded: its time, for monitors;
    /// and the cache's answer when the offline fallback gave it (``OfflineFallback``, the one stage above
    /// the attempts, which meter every other reply's).
    func replyArrived(_ result: TransferResult) {
        let now = report == nil ? 0 : clock.now.uptimeNanoseconds
        state.withLock { state in
            state.monitored?.replyAt = now
            if result.cacheReason == .offline { state.meter.cache = result.cacheAnswer }
        }
    }

    /// The request's metrics so far.
    var metrics: RequestMetrics {
        let now = clock.now.uptimeNanoseconds
        let (meter, monitored) = state.withLock { ($0.meter, $0.monitored) }
        var metrics = RequestMetrics(
            startDate: started.date, duration: Self.seconds(now - started.uptime),
            timeToFirstByte: meter.firstByte.map {
                Self.seconds($0 >= meter.attemptStart ? $0 - meter.attemptStart : 0)
            },
            bytesSent: meter.bytesSent, bytesReceived: meter.bytesReceived,
            attempts: max(meter.attempts, 1), eventCount: eventCount?())
        metrics.queuedDuration = Self.seconds(meter.queued)
        metrics.bodyResends = meter.bodyResends
        (metrics.budgetQueuedDuration, metrics.rateLimitQueuedDuration, metrics.sharedCallers) = (
            Self.seconds(meter.queued - meter.rateLimited), Self.seconds(meter.rateLimited),
            meter.sharedCallers
        )
        (metrics.cacheStatus, metrics.cacheReason) = (meter.cache?.status, meter.cache?.reason)
        monitored?.add(to: &metrics, now: now)
        return metrics
    }

    /// Nanoseconds as the metrics' seconds.
    static func seconds(_ nanoseconds: UInt64) -> TimeInterval {
        TimeInterval(nanoseconds) / 1e9
    }

    func succeed(raw: NetworkResponse<Data>? = nil, _ deliver: @escaping () -> Void) {
        settle(.success(deliver, raw))
    }

    func fail(_ error: NetworkError) {
        settle(.failure(error))
    }

    func cancel() {
        endByCancelling()
    }

    /// Cancels as ``cancel()`` does.
    ///
    /// - Returns: Whether this cancel ended a running call; `false` when an outcome was settled before it
    ///   (a cancel still replaces one not yet delivered). A composed call undoes its work on the server
    ///   only when its own cancel ended it (a resumable upload's `DELETE`).
    @discardableResult
    func endByCancelling() -> Bool {
        settle(.failure(.cancelled), replacingSettled: true, stopsTransport: true)
    }

    /// Ends the request with ``NetworkError/timedOut`` once `seconds` have passed since now, whatever
    /// it is doing then (waiting for a token, between retries, or receiving a reply a byte at a time).
    /// `nil` or infinite: no limit. The limit is a timer of `clock`, the layer's; the task's phase already
    /// lets only the first of the limit and the outcome count, so it needs no ``Deadline``.
    func limitTotalTime(to seconds: TimeInterval?, on clock: any NetworkClock) {
        guard let seconds, seconds.isFinite else { return }
        let timer = clock.makeTimer(on: nil) { [weak self] in
            self?.settle(.failure(.timedOut), stopsTransport: true)
        }
        let deadline = clock.now + max(0, seconds)
        timer.schedule(at: deadline)
        let isOver = state.withLock { state in
            if case .delivered = state.phase { return true }
            state.totalLimit = (timer, deadline)
            return false
        }
        if isOver { timer.cancel() }
    }

    /// A cancel replaces an outcome not yet delivered (the caller no longer wants it); a time limit doesn't.
    /// Both stop the attempt under way.
    /// - Returns: Whether this outcome ended a running call.
    @discardableResult
    private func settle(_ outcome: Outcome, replacingSettled: Bool = false, stopsTransport: Bool = false)
        -> Bool
    {
        // One critical section: an attempt attached in between would run on after `.cancelled` was told.
        let (wasRunning, schedule, cancelTransport) = state.withLock { state in
            let wasRunning: Bool
            switch state.phase {
            case .running: wasRunning = true
            case .settled where replacingSettled: wasRunning = false
            case .settled, .delivered: return (false, false, stopsTransport ? state.inFlight?.cancel : nil)
            }
            state.phase = .settled(outcome)
            state.monitored?.settledAt = clock.now.uptimeNanoseconds
            guard stopsTransport else { return (wasRunning, wasRunning, nil) }
            // An attempt that began will end (`attach` stops it if it isn't linked yet).
            let awaits = wasRunning && cancelWaitsForTransport && state.inFlight != nil
            if awaits { state.deliveryAwaitsTransport = true }
            return (wasRunning, wasRunning && !awaits, state.inFlight?.cancel)
        }
        // The transport first: one that answers in place forgets the request before an in-place handler
        // looks for it.
        cancelTransport?()
        if schedule { delivery.run { self.deliver() } }
        return wasRunning
    }

    private func deliver() {
        let taken = state.withLock { state -> State? in
            guard case .settled = state.phase else { return nil }
            defer {
                state.phase = .delivered
                state.failureHandler = nil
                // Still in flight, if it was: an attempt linked from now on is cancelled at once.
                if state.inFlight != nil { state.inFlight = (nil, nil) }
                state.totalLimit = nil
                state.priorityObserver = nil
            }
            return state
        }
        guard let taken, case .settled(let outcome) = taken.phase else { return }
        taken.totalLimit?.timer.cancel()
        switch outcome {
        case .success(let handler, let raw):
            // A success carries its handler's metrics (taken when it was decoded) with the delivery since.
            if let report, let raw {
                let now = clock.now.uptimeNanoseconds
                let seen = raw.metrics.map { taken.monitored?.delivered($0, now: now) ?? $0 }
                report(.success(raw), seen ?? metrics)
            }
            handler()
        case .failure(let error):
            report?(.failure(error), metrics)
            taken.failureHandler?(error)
        }
    }
}
