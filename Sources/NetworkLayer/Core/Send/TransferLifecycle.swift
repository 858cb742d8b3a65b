import Foundation

/// Where a ``Transfer`` is in its life and what each event makes it do: a pure value, so the rules read
/// as a table (`TransferLifecycleTests`) and ``Transfer`` keeps only the I/O. Impossible events trap in
/// debug builds.
struct TransferLifecycle {
    enum Phase: Equatable {
        /// Made, with no task yet: waiting for its turn, or for its body to be prepared.
        case waiting
        case running
        /// Its task was cancelled so the transfer starts over (the sink asked) once it ends.
        case restarting
        /// The first reason wins; without a task, whatever would have started it delivers instead.
        case stopped(URLError, hasTask: Bool)
        case finished
    }

    enum Stop: Equatable {
        /// The transfer is over, or has no task yet (the reason is kept for its start).
        case none
        case cancel(resumesReading: Bool)
        /// Libcurl may be held back, so the cancel may wait long: cancel elsewhere and deliver now.
        case cancelElsewhereAndFinish(resumesReading: Bool, releasesBackPressure: Bool)
    }

    enum End: Equatable {
        case ignore
        /// Ask the sink for the request to start over with (``restartFailed()`` if it has none).
        case startOver
        case deliver(Delivery)
    }

    struct Delivery: Equatable {
        /// Wins over whatever the task reported.
        var stopReason: URLError?
        var declinedChallenge = false
        /// Reading must go on for libcurl's thread to move.
        var resumesReading = false
        var releasesBackPressure = false
    }

    private(set) var phase = Phase.waiting
    /// While running: the reply may outrun the delegate queue, which holds libcurl back meanwhile.
    private(set) var holdsBackPressure = false
    /// While running: the task then ends as cancelled, which is the challenge's own reply, not a failure.
    private var declinedChallenge = false
    /// The pauses a stream's consumer asked for and hasn't lifted. Why counted: a resume travels from the
    /// consumer's thread, so a late resume would lift a newer pause and read on while the consumer is behind.
    private var pauses = 0

    var isPaused: Bool { pauses > 0 }

    var canBegin: Bool { phase == .waiting || phase == .restarting }

    var keepsDeadline: Bool { canBegin || phase == .running }
    /// A restarting task's late bytes still reach the sink, which drops them.
    var takesBody: Bool { keepsDeadline }

    /// A head already on its way when the transfer stopped is refused: it would take a back-pressure hold
    /// that nothing releases any more.
    var takesResponse: Bool { phase == .running }

    /// Why: answering a cancelled task's redirect stops the process in FoundationNetworking.
    var isStopped: Bool { phase != .waiting && phase != .running }

    // MARK: - Events

    mutating func began() {
        assert(canBegin, "a task began in \(phase)")
        phase = .running
        declinedChallenge = false
    }

    mutating func failedToPrepare(_ error: URLError) {
        if phase == .waiting { phase = .stopped(error, hasTask: false) }
    }

    /// `true` when the transfer must take a back-pressure hold now.
    mutating func accepted(needsBackPressure: Bool) -> Bool {
        guard phase == .running, needsBackPressure, !holdsBackPressure else { return false }
        holdsBackPressure = true
        return true
    }

    /// `true` when a hold must be given back.
    mutating func restart() -> Bool {
        guard phase == .running else {
            assertionFailure("restart in \(phase)")
            return false
        }
        phase = .restarting
        return takeHold()
    }

    mutating func declineChallenge() {
        guard phase == .running else { return assertionFailure("challenge in \(phase)") }
        declinedChallenge = true
    }

    /// `sessionHoldsBack`: whether the session holds libcurl back for any transfer.
    mutating func stop(because reason: URLError?, sessionHoldsBack: Bool) -> Stop {
        var kept = reason ?? URLError(.cancelled)
        switch phase {
        case .finished, .stopped(_, hasTask: false): return .none
        case .waiting:
            phase = .stopped(kept, hasTask: false)
            return .none
        case .stopped(let first, hasTask: true): kept = first
        case .running, .restarting: break
        }
        phase = .stopped(kept, hasTask: true)
        let resumes = removePauses()
        let holds = takeHold()
        guard holds || sessionHoldsBack else { return .cancel(resumesReading: resumes) }
        return .cancelElsewhereAndFinish(resumesReading: resumes, releasesBackPressure: holds)
    }

    mutating func ended() -> End {
        var delivery = Delivery()
        switch phase {
        case .finished: return .ignore
        case .restarting: return .startOver
        case .waiting: assertionFailure("ended before it began")
        case .stopped(let reason, _): delivery.stopReason = reason
        case .running: delivery.declinedChallenge = declinedChallenge
        }
        delivery.resumesReading = removePauses()
        delivery.releasesBackPressure = takeHold()
        phase = .finished
        return .deliver(delivery)
    }

    mutating func restartFailed() -> Delivery {
        phase = .finished
        return Delivery(resumesReading: removePauses())
    }

    /// `true` when reading must stop now.
    mutating func pause() -> Bool {
        switch phase {
        case .running, .restarting, .stopped(_, hasTask: true): pauses += 1
        case .waiting, .stopped(_, hasTask: false), .finished: return false
        }
        return pauses == 1
    }

    /// `true` when reading must go on now; a resume with no pause left (its transfer ended) does nothing.
    mutating func resume() -> Bool {
        guard pauses > 0 else { return false }
        pauses -= 1
        return pauses == 0
    }

    /// The transfer is ending: `true` when reading was paused.
    private mutating func removePauses() -> Bool {
        defer { pauses = 0 }
        return pauses > 0
    }

    /// `true` when a back-pressure hold was taken, which the caller now gives back.
    private mutating func takeHold() -> Bool {
        defer { holdsBackPressure = false }
        return holdsBackPressure
    }
}
