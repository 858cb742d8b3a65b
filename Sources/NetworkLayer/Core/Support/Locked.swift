import Foundation

/// State shared between threads, reachable only while its lock is held.
///
/// The one lock type of the library: everything else that is mutable is owned by one queue (see
/// `ConcurrencyModel.swift`). Keep the closures short: never call user code, never touch the disk and
/// never call into URLSession inside one.
package final class Locked<State>: @unchecked Sendable {
    private let lock = NSLock()
    private var state: State

    package init(_ state: State) {
        self.state = state
    }

    /// Runs `body` with the state, under the lock.
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
