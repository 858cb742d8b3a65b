import Foundation

/// The delivery stage: a one-shot latch that makes sure exactly one handler runs, exactly once, on the
/// callback queue, whatever order the reply, a failure and `cancel()` arrive in. The test doubles use the
/// same latch, delivering in place where they answer synchronously (see ``CallbackDelivery``).
///
/// Handlers are released as soon as one has run, so a caller that keeps the task (to cancel it later)
/// does not keep alive whatever its handlers captured.
final class RequestTask: NetworkTask, @unchecked Sendable {
    // Everything mutable is guarded by `lock`; handlers run only where `delivery` runs them.
    private let lock = NSLock()
    private let delivery: CallbackDelivery
    private var failureHandler: ((NetworkError) -> Void)?
    private var phase = Phase.running
    /// The newest attempt's cancel action, while that attempt runs.
    private var cancelTransport: (@Sendable () -> Void)?
    /// The newest attempt's number, and whether its transport is done with it.
    private var attempt = 0
    private var attemptEnded = false
    /// A download's `.cancelled` waits for its transport to end, so that when the handler runs the
    /// partial file is complete on disk and ``NetworkLayer/partialDownloadSize(for:)`` reports it.
    private let cancelWaitsForTransport: Bool
    /// A cancel is settled and its delivery waits for ``transportFinished()``.
    private var deliveryAwaitsTransport = false
    /// Told the outcome as it is delivered, for monitors: the raw response on success.
    private let report: (@Sendable (Result<NetworkResponse<Data>, NetworkError>) -> Void)?

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
        report: (@Sendable (Result<NetworkResponse<Data>, NetworkError>) -> Void)? = nil,
        cancelWaitsForTransport: Bool = false
    ) {
        self.cancelWaitsForTransport = cancelWaitsForTransport
        self.delivery = delivery
        self.failureHandler = failureHandler
        self.report = report
    }

    /// Whether the outcome is decided (delivered or about to be).
    var isSettled: Bool {
        lock.withLock {
            if case .running = phase { return false }
            return true
        }
    }

    /// An attempt is about to be sent: its number, for ``attach(cancellingWith:toAttempt:)``; `nil` once
    /// the task is cancelled (a cancel that came after the attempt loop last looked), so nothing is sent.
    /// Every attempt that begins ends with ``transportFinished()``: a cancelled download's handler waits
    /// for it.
    func beginAttempt() -> Int? {
        lock.withLock {
            guard case .running = phase else { return nil }
            attempt += 1
            attemptEnded = false
            return attempt
        }
    }

    /// Links attempt `number`'s cancel action so `cancel()` can stop it; a task already cancelled stops
    /// it at once. An attempt that already ended, or was followed by another, before its `send` returned
    /// (a transport answering in place, a fast failure) is not linked: its action would stop nothing, and
    /// would take the place of the running attempt's.
    func attach(cancellingWith cancelTransport: @escaping @Sendable () -> Void, toAttempt number: Int) {
        let cancelNow = lock.withLock {
            guard number == attempt, !attemptEnded else { return false }
            guard case .running = phase else { return true }
            self.cancelTransport = cancelTransport
            return false
        }
        if cancelNow { cancelTransport() }
    }

    /// Drops the transport's cancel action once the transport is done with the attempt, so the session
    /// task is released where the transport finished, not on the callback queue.
    func transportFinished() {
        let deliverNow = lock.withLock {
            attemptEnded = true
            cancelTransport = nil
            defer { deliveryAwaitsTransport = false }
            return deliveryAwaitsTransport
        }
        if deliverNow { delivery.run { self.deliver() } }
    }

    /// Settles with success; `deliver` calls the success handler. `raw` is what monitors are told.
    func succeed(raw: NetworkResponse<Data>? = nil, _ deliver: @escaping () -> Void) {
        settle(.success(deliver, raw), replacingSettled: false)
    }

    /// Settles with `error`, unless the task is already settled.
    func fail(_ error: NetworkError) {
        settle(.failure(error), replacingSettled: false)
    }

    func cancel() {
        // Reading the transport's cancel action and settling in one critical section: otherwise an
        // attempt attached in between would run on, uncancelled, after the caller was told `.cancelled`.
        let (shouldSchedule, cancelTransport) = lock.withLock {
            var schedule = settleLocked(.failure(.cancelled), replacingSettled: true)
            // An attempt that began will end (`attach` stops it if it isn't linked yet).
            if schedule, cancelWaitsForTransport, attempt > 0, !attemptEnded {
                deliveryAwaitsTransport = true
                schedule = false
            }
            return (schedule, self.cancelTransport)
        }
        // The transport first: a transport that answers in place (a test double's held reply) forgets
        // the request before a handler delivered in place can look for it.
        cancelTransport?()
        if shouldSchedule { delivery.run { self.deliver() } }
    }

    private func settle(_ outcome: Outcome, replacingSettled: Bool) {
        let shouldSchedule = lock.withLock { settleLocked(outcome, replacingSettled: replacingSettled) }
        if shouldSchedule {
            delivery.run { self.deliver() }
        }
    }

    /// Moves to `.settled(outcome)` if allowed; `true` when a delivery must be scheduled. Call under `lock`.
    private func settleLocked(_ outcome: Outcome, replacingSettled: Bool) -> Bool {
        switch phase {
        case .running:
            phase = .settled(outcome)
            return true
        case .settled where replacingSettled:
            phase = .settled(outcome)
            return false
        case .settled, .delivered:
            return false
        }
    }

    private func deliver() {
        let delivery: (Outcome, ((NetworkError) -> Void)?)? = lock.withLock {
            guard case .settled(let outcome) = phase else { return nil }
            defer {
                phase = .delivered
                failureHandler = nil
                cancelTransport = nil
            }
            return (outcome, failureHandler)
        }
        switch delivery {
        case (.success(let handler, let raw), _)?:
            if let report, let raw { report(.success(raw)) }
            handler()
        case (.failure(let error), let handler)?:
            report?(.failure(error))
            handler?(error)
        case nil: break
        }
    }
}
