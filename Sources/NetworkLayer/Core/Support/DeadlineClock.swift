import Foundation

/// Something with a deadline a ``DeadlineClock`` keeps: a transfer's idle timeout, a policy hook's limit.
protocol Expiring: AnyObject, Sendable {
    /// Read where the clock sweeps; `nil` once it can't expire. It may move later, never earlier than the
    /// deadline it was registered with.
    var deadline: DispatchTime? { get }
    /// Called once, where the clock sweeps.
    func expire()
}

/// Many deadlines kept by one timer (a session's transfers, or the policy stage's waits), armed for the
/// earliest and moved only when a sooner one arrives; a sweep expires what is past and arms the next.
/// Why not FoundationNetworking's timeouts or a timer per request: <doc:DesignNotes>.
final class DeadlineClock: Sendable {
    /// How late a sweep may run: fractional timeouts stay exact to within a few milliseconds.
    static let leeway = DispatchTimeInterval.milliseconds(2)

    static let policies = DeadlineClock(label: "NetworkLayer.policyDeadlines") { $0() }

    private struct State {
        var items: [ObjectIdentifier: any Expiring] = [:]
        var armed: DispatchTime?
        var timer: (any DispatchSourceTimer)?
    }

    private let state = Locked(State())
    private let timerQueue: DispatchQueue
    private let sweepOn: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// - Parameter sweepOn: Runs a sweep where the items' deadlines may be read (a session's delegate queue).
    init(label: String, sweepOn: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        timerQueue = DispatchQueue(label: label)
        self.sweepOn = sweepOn
    }

    func register(_ item: any Expiring, deadline: DispatchTime) {
        state.withLock {
            $0.items[ObjectIdentifier(item)] = item
            arm(&$0, at: deadline)
        }
    }

    func remove(_ item: any Expiring) {
        _ = state.withLock { $0.items.removeValue(forKey: ObjectIdentifier(item)) }
    }

    /// Tests use it to see that a finished request keeps none.
    var count: Int { state.withLock { $0.items.count } }

    /// Tests use it to see that an idle clock has none running.
    var isArmed: Bool { state.withLock { $0.armed != nil } }

    private func arm(_ state: inout State, at deadline: DispatchTime) {
        if let armed = state.armed, armed <= deadline { return }
        state.armed = deadline
        if let timer = state.timer {
            timer.schedule(deadline: deadline, leeway: Self.leeway)
        } else {
            let timer = DispatchSource.makeTimerSource(queue: timerQueue)
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
