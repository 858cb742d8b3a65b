import Foundation

/// A cancel action that arrives later than the request to cancel: a cancel before it arrives runs it
/// as soon as it does.
final class DeferredCancel: Sendable {
    private let state = Locked<(isCancelled: Bool, action: (@Sendable () -> Void)?)>((false, nil))

    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    func attach(_ action: @escaping @Sendable () -> Void) {
        let cancelNow = state.withLock { state in
            state.action = action
            return state.isCancelled
        }
        if cancelNow { action() }
    }

    func cancel() {
        let action = state.withLock { state in
            state.isCancelled = true
            return state.action
        }
        action?()
    }
}
