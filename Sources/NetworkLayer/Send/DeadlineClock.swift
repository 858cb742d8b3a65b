import Foundation

/// The idle deadlines of every transfer running on one session, kept by one timer.
///
/// FoundationNetworking truncates its own timeouts to whole seconds (0.5 s fires at once), so the layer
/// keeps them. One dispatch timer per request cost about ten context switches and 70 µs of CPU a request
/// on Linux, where arming and cancelling a timer wakes libdispatch's manager thread. Here a session has
/// one timer, armed for the earliest deadline it knows of and moved only when a sooner one arrives: a
/// new request's deadline (now plus its timeout) is almost always later than the one armed, so most
/// requests arm nothing. When it fires, a sweep on the delegate queue reads each transfer's real
/// deadline (its last activity plus its timeout), stops the expired ones and arms the next; with no
/// transfers left it arms nothing, and an idle session has no timer running.
///
/// A transfer is registered before its task resumes and removed as it finishes, on the delegate queue,
/// so a request that fails at once keeps nothing behind.
final class DeadlineClock: Sendable {
    /// How late a sweep may run: fractional timeouts stay exact to within a few milliseconds.
    static let leeway = DispatchTimeInterval.milliseconds(2)

    private struct State {
        var transfers: [ObjectIdentifier: Transfer] = [:]
        /// When the timer fires next; `nil` when it is not armed.
        var armed: DispatchTime?
        var timer: (any DispatchSourceTimer)?
    }

    private let state = Locked(State())
    private let timerQueue = DispatchQueue(label: "NetworkLayer.DeadlineClock")
    private let delegateQueue: OperationQueue

    init(delegateQueue: OperationQueue) {
        self.delegateQueue = delegateQueue
    }

    /// Starts keeping `transfer`'s deadline, which is `deadline` at the latest.
    func register(_ transfer: Transfer, deadline: DispatchTime) {
        state.withLock {
            $0.transfers[ObjectIdentifier(transfer)] = transfer
            arm(&$0, at: deadline)
        }
    }

    /// Stops keeping `transfer`'s deadline; on the delegate queue, as the transfer finishes.
    func remove(_ transfer: Transfer) {
        _ = state.withLock { $0.transfers.removeValue(forKey: ObjectIdentifier(transfer)) }
    }

    /// How many transfers have a deadline; tests use it to see that a finished request keeps none.
    var count: Int { state.withLock { $0.transfers.count } }

    /// Whether the timer is armed; tests use it to see that an idle session has none running.
    var isArmed: Bool { state.withLock { $0.armed != nil } }

    /// Arms the timer for `deadline` unless it is already armed for an earlier time.
    private func arm(_ state: inout State, at deadline: DispatchTime) {
        if let armed = state.armed, armed <= deadline { return }
        state.armed = deadline
        let timer = state.timer ?? makeTimer()
        if state.timer == nil {
            state.timer = timer
            timer.schedule(deadline: deadline, leeway: Self.leeway)
            timer.resume()
        } else {
            timer.schedule(deadline: deadline, leeway: Self.leeway)
        }
    }

    private func makeTimer() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: timerQueue)
        // The clock lives as long as its session; the handler holds it weakly all the same.
        timer.setEventHandler { [weak self] in self?.fired() }
        return timer
    }

    private func fired() {
        state.withLock { $0.armed = nil }
        delegateQueue.addOperation { [weak self] in self?.sweep() }
    }

    /// On the delegate queue, where each transfer's activity is recorded: stops every transfer past its
    /// deadline and arms the timer for the next one.
    private func sweep() {
        let transfers = state.withLock { Array($0.transfers.values) }
        let now = DispatchTime.now()
        var next: DispatchTime?
        for transfer in transfers {
            guard let deadline = transfer.deadline else { continue }
            if deadline <= now {
                transfer.stop(because: URLError(.timedOut))
            } else if next.map({ deadline < $0 }) ?? true {
                next = deadline
            }
        }
        if let next { state.withLock { arm(&$0, at: next) } }
    }
}
