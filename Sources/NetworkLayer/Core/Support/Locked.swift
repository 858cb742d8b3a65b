import Foundation

/// The library's one lock type (everything else mutable is owned by one queue:
/// <doc:ErrorsAndThreading#Which-queue-owns-what>).
/// Keep closures short: never call user code, touch the disk or call into URLSession inside one.
package final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
