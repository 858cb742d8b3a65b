import Foundation

/// Where a request's handlers run: asynchronously on a queue, which is what the layer promises, or, for
/// a test double that answers while the caller is still inside the request method, right there.
package struct CallbackDelivery: Sendable {
    /// The queue handlers run on when they don't run in place.
    let queue: DispatchQueue
    /// Asked at each delivery: `true` runs it on the current thread, now. `nil` never does.
    private let runsInPlace: (@Sendable () -> Bool)?

    /// Delivers on `queue`, or in place whenever `runsInPlace` says so at the moment of delivery.
    ///
    /// - Parameters:
    ///   - queue: Where handlers run otherwise.
    ///   - runsInPlace: Asked at each delivery; `nil` always uses `queue`.
    package init(queue: DispatchQueue, runsInPlace: (@Sendable () -> Bool)? = nil) {
        self.queue = queue
        self.runsInPlace = runsInPlace
    }

    /// Runs `work` in place or on the queue.
    package func run(_ work: @escaping @Sendable () -> Void) {
        if runsInPlace?() == true {
            work()
        } else {
            queue.async(execute: work)
        }
    }
}
