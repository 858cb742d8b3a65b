import Foundation

/// The library's one lock type (everything else mutable is owned by one queue:
/// <doc:ErrorsAndThreading#Which-queue-owns-what>).
/// Keep closures short: never call user code, touch the disk or call into URLSession inside one.
///
/// The state and its mutex allocated together. Why not an `NSLock` beside the state: that is three
/// allocations (this object, the lock, its mutex) for two here, and a request's task makes one lock per
/// request (<doc:Performance>).
package final class Locked<State>: @unchecked Sendable {
    private let storage: Storage

    package init(_ state: State) {
        storage = unsafeDowncast(Storage.create(minimumCapacity: 1) { _ in state }, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { _ = pthread_mutex_init($0, nil) }
    }

    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }

    /// The state as the header, the mutex as the one element: tail-allocated, so its address never moves.
    private final class Storage: ManagedBuffer<State, pthread_mutex_t> {
        deinit {
            withUnsafeMutablePointerToElements { _ = pthread_mutex_destroy($0) }
        }
    }
}
