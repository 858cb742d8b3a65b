import Foundation

/// The delivery stage: a one-shot latch that makes sure exactly one handler runs, exactly once, on the
/// callback queue, whatever order the reply, a failure and `cancel()` arrive in. The test doubles use the
/// same latch, delivering in place where they answer synchronously (see ``CallbackDelivery``).
///
/// Handlers are released as soon as one has run, so a caller that keeps the task (to cancel it later)
/// does not keep alive whatever its handlers captured.
final class RequestTask: NetworkTask, Sendable {
    // Handlers run only where `delivery` runs them, never under the state's lock.
    private let state: Locked<State>
    private let delivery: CallbackDelivery
    /// A download's `.cancelled` waits for its transport to end, so that when the handler runs the
    /// partial file is complete on disk and ``NetworkLayer/partialDownloadSize(for:)`` reports it.
    private let cancelWaitsForTransport: Bool
    /// Told the outcome as it is delivered, for monitors: the raw response on success.
    private let report: (@Sendable (Result<NetworkResponse<Data>, NetworkError>) -> Void)?

    private struct State {
        var failureHandler: ((NetworkError) -> Void)?
        var phase = Phase.running
        /// The newest attempt's cancel action, while that attempt runs.
        var cancelTransport: (@Sendable () -> Void)?
        /// The newest attempt's number, and whether its transport is done with it.
        var attempt = 0
        var attemptEnded = false
        /// A cancel is settled and its delivery waits for ``transportFinished()``.
        var deliveryAwaitsTransport = false
        /// The request's total time limit, released once a handler has run.
        var totalDeadline: Deadline?

        /// Moves to `.settled(outcome)` if allowed; `true` when a delivery must be scheduled.
        mutating func settle(_ outcome: Outcome, replacingSettled: Bool) -> Bool {
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
        report: (@Sendable (Result<NetworkResponse<Data>, NetworkError>) -> Void)? = nil,
        cancelWaitsForTransport: Bool = false
    ) {
        self.cancelWaitsForTransport = cancelWaitsForTransport
        self.delivery = delivery
        self.state = Locked(State(failureHandler: failureHandler))
        self.report = report
    }

    /// Whether the outcome is decided (delivered or about to be).
    var isSettled: Bool {
        state.withLock {
            if case .running = $0.phase { return false }
            return true
        }
    }

    /// An attempt is about to be sent: its number, for ``attach(cancellingWith:toAttempt:)``; `nil` once
    /// the task is cancelled (a cancel that came after the attempt loop last looked), so nothing is sent.
    /// Every attempt that begins ends with ``transportFinished()``: a cancelled download's handler waits
    /// for it.
    func beginAttempt() -> Int? {
        state.withLock { state in
            guard case .running = state.phase else { return nil }
            state.attempt += 1
            state.attemptEnded = false
            return state.attempt
        }
    }

    /// Links attempt `number`'s cancel action so `cancel()` can stop it; a task already cancelled stops
    /// it at once. An attempt that already ended, or was followed by another, before its `send` returned
    /// (a transport answering in place, a fast failure) is not linked: its action would stop nothing, and
    /// would take the place of the running attempt's.
    func attach(cancellingWith cancelTransport: @escaping @Sendable () -> Void, toAttempt number: Int) {
        let cancelNow = state.withLock { state in
            guard number == state.attempt, !state.attemptEnded else { return false }
            guard case .running = state.phase else { return true }
            state.cancelTransport = cancelTransport
            return false
        }
        if cancelNow { cancelTransport() }
    }

    /// Drops the transport's cancel action once the transport is done with the attempt, so the session
    /// task is released where the transport finished, not on the callback queue.
    func transportFinished() {
        let deliverNow = state.withLock { state in
            state.attemptEnded = true
            state.cancelTransport = nil
            defer { state.deliveryAwaitsTransport = false }
            return state.deliveryAwaitsTransport
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
        stop(with: .cancelled, replacingSettled: true)
    }

    /// Ends the request with ``NetworkError/timedOut`` once `seconds` have passed since now, whatever
    /// it is doing then (waiting for a token, between retries, or receiving a reply a byte at a time).
    /// `nil` or infinite: no limit. The limit is kept by `registry`, the layer's policy deadlines.
    func limitTotalTime(to seconds: TimeInterval?, on registry: DeadlineRegistry) {
        guard let seconds, seconds.isFinite else { return }
        let deadline = Deadline(seconds: seconds, on: registry) { [weak self] in
            self?.stop(with: .timedOut, replacingSettled: false)
        }
        let isOver = state.withLock { state in
            if case .delivered = state.phase { return true }
            state.totalDeadline = deadline
            return false
        }
        if isOver { _ = deadline.claim() }
    }

    /// Stops the transport and settles with `error`: a cancel replaces an outcome not yet delivered (the
    /// caller no longer wants it), a time limit doesn't.
    private func stop(with error: NetworkError, replacingSettled: Bool) {
        // Reading the transport's cancel action and settling in one critical section: otherwise an
        // attempt attached in between would run on, uncancelled, after the caller was told `.cancelled`.
        let (shouldSchedule, cancelTransport) = state.withLock { state in
            var schedule = state.settle(.failure(error), replacingSettled: replacingSettled)
            // An attempt that began will end (`attach` stops it if it isn't linked yet).
            if schedule, cancelWaitsForTransport, state.attempt > 0, !state.attemptEnded {
                state.deliveryAwaitsTransport = true
                schedule = false
            }
            return (schedule, state.cancelTransport)
        }
        // The transport first: a transport that answers in place (a test double's held reply) forgets
        // the request before a handler delivered in place can look for it.
        cancelTransport?()
        if shouldSchedule { delivery.run { self.deliver() } }
    }

    private func settle(_ outcome: Outcome, replacingSettled: Bool) {
        let shouldSchedule = state.withLock { $0.settle(outcome, replacingSettled: replacingSettled) }
        if shouldSchedule {
            delivery.run { self.deliver() }
        }
    }

    private func deliver() {
        let (delivery, deadline): ((Outcome, ((NetworkError) -> Void)?)?, Deadline?) = state.withLock {
            state in
            guard case .settled(let outcome) = state.phase else { return (nil, nil) }
            defer {
                state.phase = .delivered
                state.failureHandler = nil
                state.cancelTransport = nil
                state.totalDeadline = nil
            }
            return ((outcome, state.failureHandler), state.totalDeadline)
        }
        _ = deadline?.claim()
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
