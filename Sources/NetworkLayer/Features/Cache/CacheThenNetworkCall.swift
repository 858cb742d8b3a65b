import Foundation

/// One cache-then-network call, a ``ComposedCall`` of two steps: the stored reply (a request only the
/// cache may answer), then the network's (a request that revalidates what is stored). Each step is an
/// ordinary request through the layer's funnel, so a subclass or a test double sees both. The call's latch
/// ends it once, by the network's outcome, a cancel or its total time limit, and cancels the step in
/// flight.
///
/// The network step is sent once the stored one has reached this call, before its update runs (a screen
/// drawn may take a while). The update runs where the stored step's handler runs (the callback queue);
/// the call's end, which runs the network's update and the completion, waits for it when it arrives
/// meanwhile (from another thread of a concurrent callback queue), so the handlers run one at a time, in
/// order, and no update runs after the completion.
struct CacheThenNetworkCall<Value>: Sendable {
    /// The caller's handlers, released by the call's end, and the update running.
    private struct Order {
        var handlers: Handlers?
        /// While the stored reply's update runs, what runs once it returns: nothing, or the end, which
        /// came meanwhile and waits for it.
        var afterUpdate: (() -> Void)?
        var showedStored = false
    }

    private struct Handlers {
        let update: (NetworkResponse<Value>) -> Void
        let completion: (NetworkError?) -> Void
    }

    let call: ComposedCall
    private let order: Locked<Order>
    // The caller's request: read by one step at a time, each begun from the one before.
    private let request: UncheckedSendable<NetworkRequest<Value>>

    /// A call for `request` on `layer`; its handlers run on the callback queue, or where the outcome is
    /// settled when `request` (or the layer) delivers immediately.
    init(
        _ request: NetworkRequest<Value>, on layer: NetworkLayer,
        updateHandler: @escaping (NetworkResponse<Value>) -> Void,
        completionHandler: @escaping (NetworkError?) -> Void
    ) {
        let order = Locked(Order(handlers: Handlers(update: updateHandler, completion: completionHandler)))
        self.order = order
        self.request = UncheckedSendable(value: request)
        call = ComposedCall(
            request, on: layer, errorHandler: { error in Self.end(order) { $0.completion(error) } })
    }

    /// Sends the stored step, or only the network's when `readsStore` is `false` (nothing can be stored).
    func start(readsStore: Bool) {
        guard readsStore else { return sendToNetwork() }
        var stored = request.value
        stored.cachePolicy = .returnCacheDataDontLoad
        call.send(
            .success(stored), successHandler: { storedArrived($0) },
            errorHandler: { error in
                // Nothing stored (or a stored reply that couldn't be delivered) leaves the network's alone.
                if case .cancelled = error { return call.fail(error) }
                storedArrived(nil)
            })
    }

    private func storedArrived(_ stored: NetworkResponse<Value>?) {
        let update = order.withLock { state -> ((NetworkResponse<Value>) -> Void)? in
            guard stored != nil, let handlers = state.handlers else { return nil }
            (state.afterUpdate, state.showedStored) = ({}, true)
            return handlers.update
        }
        sendToNetwork()
        guard let update, let stored else { return }
        update(stored)
        let next = order.withLock { state in
            defer { state.afterUpdate = nil }
            return state.afterUpdate
        }
        next?()
    }

    private func sendToNetwork() {
        var fresh = request.value
        // A stored reply is asked about (a 304 revalidates it); without one the request loads.
        fresh.cachePolicy = .revalidate
        call.send(.success(fresh), successHandler: { networkArrived($0) }, errorHandler: { call.fail($0) })
    }

    /// A stored reply that stood in for a failure (`stale-if-error`) is the failure: the completion gets
    /// its error, and it is shown only when nothing was.
    private func networkArrived(_ response: NetworkResponse<Value>) {
        let error = response.cacheStatus.staleError
        let shows = error == nil || !order.withLock { $0.showedStored }
        call.succeed { [order] in
            Self.end(order) { handlers in
                if shows { handlers.update(response) }
                handlers.completion(error)
            }
        }
    }

    /// Runs the call's end with the caller's handlers, now or, when the stored update is running, once
    /// it returns.
    private static func end(_ order: Locked<Order>, _ final: @escaping (Handlers) -> Void) {
        let handlers = order.withLock { state -> Handlers? in
            guard let handlers = state.handlers else { return nil }
            state.handlers = nil
            guard state.afterUpdate == nil else {
                state.afterUpdate = { final(handlers) }
                return nil
            }
            return handlers
        }
        handlers.map(final)
    }
}
