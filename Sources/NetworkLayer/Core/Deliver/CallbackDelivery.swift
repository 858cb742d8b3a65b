import Foundation

/// Where a request's handlers run: asynchronously on a queue, which is what the layer promises by
/// default, or immediately, where the outcome is settled (``NetworkLayer/deliversImmediately``, and the
/// `async` forms, whose handlers only resume the awaiting code).
package struct CallbackDelivery: Sendable {
    /// The queue handlers run on; `nil` runs them where the outcome is settled.
    let queue: DispatchQueue?

    /// Delivers asynchronously on `queue`.
    ///
    /// - Parameter queue: Where handlers run.
    package init(queue: DispatchQueue) {
        self.queue = queue
    }

    private init() {
        queue = nil
    }

    /// Delivers on the thread that settles the outcome, at once.
    package static let immediate = CallbackDelivery()

    /// Whether handlers run where the outcome is settled.
    package var isImmediate: Bool { queue == nil }

    /// Runs `work` in place or on the queue.
    package func run(_ work: @escaping @Sendable () -> Void) {
        if let queue {
            queue.async(execute: work)
        } else {
            work()
        }
    }
}
