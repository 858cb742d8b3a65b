import Foundation

/// An observer of an ``Outbox``, added by ``Outbox/addObserver(on:_:)``: it is told until it is
/// cancelled or deinitialized.
public final class OutboxObservation: Sendable {
    private let cancelling: @Sendable () -> Void

    init(_ cancelling: @escaping @Sendable () -> Void) {
        self.cancelling = cancelling
    }

    deinit {
        cancelling()
    }

    /// Stops the observer; events already on its queue may still arrive.
    public func cancel() {
        cancelling()
    }
}
