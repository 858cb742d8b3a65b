import Foundation

/// Where handlers run: asynchronously on a queue, as the layer promises, or in place for a test double
/// answering while the caller is still inside the request method.
package struct CallbackDelivery: Sendable {
    let queue: DispatchQueue
    /// Asked at each delivery: `true` runs it here, now.
    private let runsInPlace: (@Sendable () -> Bool)?

    /// Delivers on `queue`, or in place whenever `runsInPlace` (`nil`: never) says so at delivery.
    package init(queue: DispatchQueue, runsInPlace: (@Sendable () -> Bool)? = nil) {
        self.queue = queue
        self.runsInPlace = runsInPlace
    }

    package func run(_ work: @escaping @Sendable () -> Void) {
        if runsInPlace?() == true {
            work()
        } else {
            queue.async(execute: work)
        }
    }
}
