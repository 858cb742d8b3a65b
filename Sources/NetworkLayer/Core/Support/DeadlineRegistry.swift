import Foundation

/// Something with a deadline a ``DeadlineRegistry`` keeps: a transfer's idle timeout, a policy hook's
/// limit.
protocol Expiring: AnyObject, Sendable {
    /// When it expires, read where the registry sweeps; `nil` once it can't expire any more. It may move
    /// later (a transfer that receives data), never earlier than the deadline it was registered with.
    var deadline: DispatchTime? { get }
    /// The deadline passed: called once, where the registry sweeps.
    func expire()
}

/// Many deadlines kept by one timer of a ``NetworkClock``: the idle deadlines of a layer's transfers on
/// one session, or every wait of a layer's policy stage.
///
/// FoundationNetworking truncates its own timeouts to whole seconds (0.5 s fires at once), so the layer
/// keeps them. The registry's one timer is armed for the earliest deadline it knows of and moved only
/// when a sooner one arrives: a new deadline (now plus a timeout) is almost always later than the one
/// armed, so most registrations arm nothing. When it fires, a sweep reads each item's real deadline,
/// expires the ones past it and arms the next; with nothing left it arms nothing.
///
/// An item is registered before what it guards starts and removed as soon as that ends, so an item that
/// ends at once keeps nothing behind.
final class DeadlineRegistry: Sendable {
    /// The clock the deadlines are on.
    let clock: any NetworkClock

    private struct State {
        var items: [ObjectIdentifier: any Expiring] = [:]
        var armed: DispatchTime?
        var timer: (any ClockTimer)?
    }

    private let state = Locked(State())
    private let sweepOn: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// - Parameters:
    ///   - clock: What the deadlines are read and kept on.
    ///   - sweepOn: Runs a sweep where the items' deadlines may be read and their expiry may run (a
    ///     session's delegate queue); it is handed the sweep where the clock fires. By default the sweep
    ///     runs there.
    init(
        clock: any NetworkClock,
        sweepOn: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { $0() }
    ) {
        self.clock = clock
        self.sweepOn = sweepOn
    }

    /// The clock's monotonic time.
    var now: DispatchTime { clock.now }

    /// Starts keeping `item`'s deadline, which is `deadline` at the latest.
    func register(_ item: any Expiring, deadline: DispatchTime) {
        state.withLock {
            $0.items[ObjectIdentifier(item)] = item
            arm(&$0, at: deadline)
        }
    }

    /// Stops keeping `item`'s deadline; the last one out disarms the timer (under the lock, as `arm`
    /// schedules it, so a registration racing with it keeps its timer), so a clock's pending timers are
    /// the deadlines still kept: a test clock lists them.
    func remove(_ item: any Expiring) {
        state.withLock { state in
            guard state.items.removeValue(forKey: ObjectIdentifier(item)) != nil, state.items.isEmpty,
                state.armed != nil
            else { return }
            state.armed = nil
            state.timer?.cancel()
        }
    }

    /// Tests use it to see that a finished request keeps none.
    var count: Int { state.withLock { $0.items.count } }

    /// Whether the timer is armed; tests use it to see that an idle registry has none running.
    var isArmed: Bool { state.withLock { $0.armed != nil } }

    private func arm(_ state: inout State, at deadline: DispatchTime) {
        if let armed = state.armed, armed <= deadline { return }
        state.armed = deadline
        if state.timer == nil {
            // The registry lives as long as its session or layer; the handler holds it weakly.
            state.timer = clock.makeTimer(on: nil) { [weak self] in self?.fired() }
        }
        state.timer?.schedule(at: deadline)
    }

    private func fired() {
        state.withLock { $0.armed = nil }
        sweepOn { [weak self] in self?.sweep() }
    }

    private func sweep() {
        let items = state.withLock { Array($0.items.values) }
        let now = clock.now
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
