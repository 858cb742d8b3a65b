import Foundation

/// Something with a deadline a ``DeadlineClock`` keeps: a transfer's idle timeout, a policy hook's limit.
protocol Expiring: AnyObject, Sendable {
    /// When it expires, read where the clock sweeps; `nil` once it can't expire any more. It may move
    /// later (a transfer that receives data), never earlier than the deadline it was registered with.
    var deadline: DispatchTime? { get }
    /// The deadline passed: called once, where the clock sweeps.
    func expire()
}

/// Many deadlines kept by one timer: the idle deadlines of every transfer on a session, or every wait of
/// the policy stage.
///
/// FoundationNetworking truncates its own timeouts to whole seconds (0.5 s fires at once), so the layer
/// keeps them. One dispatch timer per request cost about ten context switches and 70 µs of CPU a request
/// on Linux, where arming and cancelling a timer wakes libdispatch's manager thread. Here one timer is
/// armed for the earliest deadline the clock knows of and moved only when a sooner one arrives: a new
/// deadline (now plus a timeout) is almost always later than the one armed, so most registrations arm
/// nothing. When it fires, a sweep reads each item's real deadline, expires the ones past it and arms
/// the next; with nothing left it arms nothing, and an idle clock has no timer running.
///
/// An item is registered before what it guards starts and removed as soon as that ends, so an item that
/// ends at once keeps nothing behind.
final class DeadlineClock: Sendable {
    /// How late a sweep may run: fractional timeouts stay exact to within a few milliseconds.
    static let leeway = DispatchTimeInterval.milliseconds(2)

    /// The clock of the policy stage: its sweeps run on the clock's own queue.
    static let policies = DeadlineClock(label: "NetworkLayer.policyDeadlines") { $0() }

    private struct State {
        var items: [ObjectIdentifier: any Expiring] = [:]
        /// When the timer fires next; `nil` when it is not armed.
        var armed: DispatchTime?
        var timer: (any DispatchSourceTimer)?
    }

    private let state = Locked(State())
    private let timerQueue: DispatchQueue
    private let sweepOn: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// - Parameters:
    ///   - sweepOn: Runs a sweep where the items' deadlines may be read and their expiry may run (a
    ///     session's delegate queue); it is handed the sweep on the clock's own queue.
    init(label: String, sweepOn: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        timerQueue = DispatchQueue(label: label)
        self.sweepOn = sweepOn
    }

    /// Starts keeping `item`'s deadline, which is `deadline` at the latest.
    func register(_ item: any Expiring, deadline: DispatchTime) {
        state.withLock {
            $0.items[ObjectIdentifier(item)] = item
            arm(&$0, at: deadline)
        }
    }

    /// Stops keeping `item`'s deadline.
    func remove(_ item: any Expiring) {
        _ = state.withLock { $0.items.removeValue(forKey: ObjectIdentifier(item)) }
    }

    /// How many items have a deadline; tests use it to see that a finished request keeps none.
    var count: Int { state.withLock { $0.items.count } }

    /// Whether the timer is armed; tests use it to see that an idle clock has none running.
    var isArmed: Bool { state.withLock { $0.armed != nil } }

    /// Arms the timer for `deadline` unless it is already armed for an earlier time.
    private func arm(_ state: inout State, at deadline: DispatchTime) {
        if let armed = state.armed, armed <= deadline { return }
        state.armed = deadline
        if let timer = state.timer {
            timer.schedule(deadline: deadline, leeway: Self.leeway)
        } else {
            let timer = DispatchSource.makeTimerSource(queue: timerQueue)
            // The clock lives as long as its session (or the process); the handler holds it weakly.
            timer.setEventHandler { [weak self] in self?.fired() }
            state.timer = timer
            timer.schedule(deadline: deadline, leeway: Self.leeway)
            timer.resume()
        }
    }

    private func fired() {
        state.withLock { $0.armed = nil }
        sweepOn { [weak self] in self?.sweep() }
    }

    /// Expires every item past its deadline and arms the timer for the next one.
    private func sweep() {
        let items = state.withLock { Array($0.items.values) }
        let now = DispatchTime.now()
        var next: DispatchTime?
        for item in items {
            guard let deadline = item.deadline else { continue }
            if deadline <= now {
                remove(item)
                item.expire()
            } else if next.map({ deadline < $0 }) ?? true {
                next = deadline
            }
        }
        if let next { state.withLock { arm(&$0, at: next) } }
    }
}
