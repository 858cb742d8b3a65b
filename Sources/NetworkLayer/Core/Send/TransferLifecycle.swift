import Foundation

/// Where a ``Transfer`` is in its life, and what each event makes it do: a pure value, so the rules read
/// as a table (see `TransferLifecycleTests`) and ``Transfer`` keeps only the I/O (the task, the sink, the
/// session's queues and clock).
///
/// The task itself stays with the transfer; a phase says whether there is one. Events that cannot
/// happen in a phase (a task beginning twice, a challenge declined before any task) trap in debug builds.
struct TransferLifecycle {
    /// The phases, in the order a transfer normally passes them.
    enum Phase: Equatable {
        /// Made, with no task yet: waiting for its turn, or for its body to be prepared.
        case waiting
        /// Its task runs.
        case running(Running)
        /// Its task was cancelled so that the transfer starts over (the sink asked for it) once it ends.
        case restarting
        /// Stopped for a reason (the first one wins); `hasTask` when its cancelled task hasn't ended
        /// yet. Without a task, whatever would have started it delivers instead.
        case stopped(URLError, hasTask: Bool)
        /// Its one completion was delivered: every later event is dropped.
        case finished
    }

    /// What a running task holds.
    struct Running: Equatable {
        /// The reply may outrun the delegate queue, which holds libcurl back meanwhile.
        var holdsBackPressure = false
        /// The server asked for credentials the layer declined to give: the task ends as cancelled, and
        /// that is the challenge's own reply, not a failure.
        var declinedChallenge = false
    }

    /// What a stop does.
    enum Stop: Equatable {
        /// Nothing more: the transfer is over, or has no task yet (the reason is kept for its start).
        case none
        /// Cancel the task, which reports its own end.
        case cancel(resumesReading: Bool)
        /// Libcurl may be held back, so the cancel may wait long: cancel the task from elsewhere and
        /// deliver now, releasing this transfer's own hold first.
        case cancelElsewhereAndFinish(resumesReading: Bool, releasesBackPressure: Bool)
    }

    /// What the end of the task (or a start that found the transfer stopped) does.
    enum End: Equatable {
        /// Already delivered: nothing.
        case ignore
        /// Ask the sink for the request to start over with (``restartFailed()`` if it has none).
        case startOver
        /// Deliver, exactly once.
        case deliver(Delivery)
    }

    /// How the one completion is made.
    struct Delivery: Equatable {
        /// Why the layer stopped the transfer; it wins over whatever the task reported.
        var stopReason: URLError?
        /// A cancel that ends the task is the declined challenge's reply, not a failure.
        var declinedChallenge = false
        /// Reading was paused, and must go on for libcurl's thread to move.
        var resumesReading = false
        /// The transfer's back-pressure hold must be given back.
        var releasesBackPressure = false
    }

    private(set) var phase = Phase.waiting
    /// The pauses a stream's consumer asked for; they outlive no task.
    private var pauses = ReadingPauses()

    /// Whether reading is paused for a consumer that is behind (which isn't the server being idle).
    var isPaused: Bool { pauses.isPaused }

    /// Whether the task can be created now: `false` once stopped, and the transfer delivers instead.
    var canBegin: Bool { phase == .waiting || phase == .restarting }

    /// Whether an idle deadline applies: not once stopped or over.
    var keepsDeadline: Bool {
        switch phase {
        case .waiting, .running, .restarting: true
        case .stopped, .finished: false
        }
    }

    /// Whether a redirect or challenge may still be answered: answering a cancelled task's redirect stops
    /// the process in FoundationNetworking.
    var isStopped: Bool {
        switch phase {
        case .waiting, .running: false
        case .restarting, .stopped, .finished: true
        }
    }

    /// Whether body bytes are taken: a restarting task's late bytes still reach the sink, which drops them.
    var takesBody: Bool { keepsDeadline }

    /// Whether a task exists to pause, cancel or resume.
    private var hasTask: Bool {
        switch phase {
        case .running, .restarting, .stopped(_, hasTask: true): true
        case .waiting, .stopped(_, hasTask: false), .finished: false
        }
    }

    // MARK: - Events

    /// The task was created and is about to resume.
    mutating func began() {
        assert(canBegin, "a task began in \(phase)")
        phase = .running(Running())
    }

    /// Nothing could be sent (the body or the request could not be prepared): stopped, with no task.
    mutating func failedToPrepare(_ error: URLError) {
        guard case .waiting = phase else { return }
        phase = .stopped(error, hasTask: false)
    }

    /// A response head arrived: whether the sink gets it. A head already on its way when the transfer
    /// stopped is refused: accepted, it would take a back-pressure hold that nothing releases any more.
    var takesResponse: Bool {
        if case .running = phase { return true }
        return false
    }

    /// The sink accepted the reply: `true` when the transfer must take a back-pressure hold now.
    mutating func accepted(needsBackPressure: Bool) -> Bool {
        guard case .running(var running) = phase, needsBackPressure, !running.holdsBackPressure else {
            return false
        }
        running.holdsBackPressure = true
        phase = .running(running)
        return true
    }

    /// The sink asked to start over: the task is to be cancelled. `true` when a hold must be given back.
    mutating func restart() -> Bool {
        guard case .running(let running) = phase else {
            assertionFailure("restart in \(phase)")
            return false
        }
        phase = .restarting
        return running.holdsBackPressure
    }

    /// The layer declined the server's challenge.
    mutating func declineChallenge() {
        guard case .running(var running) = phase else { return assertionFailure("challenge in \(phase)") }
        running.declinedChallenge = true
        phase = .running(running)
    }

    /// The layer stops the transfer for `reason` (`nil`: the caller cancelled); the first reason wins.
    /// `sessionHoldsBack` tells whether the session holds libcurl back for any transfer.
    mutating func stop(because reason: URLError?, sessionHoldsBack: Bool) -> Stop {
        let kept: URLError
        var holds = false
        switch phase {
        case .finished: return .none
        case .stopped(_, hasTask: false): return .none
        case .waiting:
            phase = .stopped(reason ?? URLError(.cancelled), hasTask: false)
            return .none
        case .stopped(let first, hasTask: true): kept = first
        case .restarting: kept = reason ?? URLError(.cancelled)
        case .running(let running):
            kept = reason ?? URLError(.cancelled)
            holds = running.holdsBackPressure
        }
        phase = .stopped(kept, hasTask: true)
        let resumes = pauses.removeAll()
        guard holds || sessionHoldsBack else { return .cancel(resumesReading: resumes) }
        return .cancelElsewhereAndFinish(resumesReading: resumes, releasesBackPressure: holds)
    }

    /// The task ended, or a start found the transfer stopped.
    mutating func ended() -> End {
        switch phase {
        case .finished: return .ignore
        case .restarting: return .startOver
        case .waiting:
            assertionFailure("ended before it began")
            return finish(stopReason: nil, running: Running())
        case .stopped(let reason, _): return finish(stopReason: reason, running: Running())
        case .running(let running): return finish(stopReason: nil, running: running)
        }
    }

    /// The sink had no request to start over with: what the cancelled task reported is delivered.
    mutating func restartFailed() -> Delivery {
        guard case .deliver(let delivery) = finish(stopReason: nil, running: Running()) else {
            preconditionFailure("finishing always delivers")
        }
        return delivery
    }

    private mutating func finish(stopReason: URLError?, running: Running) -> End {
        phase = .finished
        return .deliver(
            Delivery(
                stopReason: stopReason, declinedChallenge: running.declinedChallenge,
                resumesReading: pauses.removeAll(), releasesBackPressure: running.holdsBackPressure))
    }

    /// A stream's consumer fell behind: `true` when reading must stop now (pauses are counted).
    mutating func pause() -> Bool {
        guard hasTask else { return false }
        return pauses.pause()
    }

    /// One pause lifted: `true` when reading must go on now.
    mutating func resume() -> Bool {
        pauses.resume()
    }
}
