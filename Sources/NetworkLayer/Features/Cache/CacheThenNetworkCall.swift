import Foundation

/// One cache-then-network call, as one task over its two phases: the stored reply (a request only the
/// cache may answer), then the network's (a request that revalidates what is stored). Each phase is an
/// ordinary request through the layer's funnel, so a subclass or a test double sees both.
///
/// The network phase starts once the stored one has reached this call, after its update was queued.
/// Handlers run one at a time, in order, through `delivery`, never under the lock. After a cancel, an
/// update not yet run is dropped and the completion receives ``NetworkError/cancelled``; the completion
/// runs exactly once, last.
final class CacheThenNetworkCall<Value>: NetworkTask, Sendable {
    private struct State {
        /// 1 while the stored phase runs, 2 once the network phase is sent.
        var phase = 1
        /// The running phase's request, to cancel.
        var current: (any NetworkTask)?
        /// Whether the completion's outcome is decided: later outcomes and cancels change nothing.
        var finished = false
        var cancelled = false
        var showedStored = false
        /// Released by the completion, so a kept task doesn't keep what they captured.
        var updateHandler: ((NetworkResponse<Value>) -> Void)?
        var completionHandler: ((NetworkError?) -> Void)?
        /// Handlers to run, in order, and whether a drain is running them.
        var pending: [Handling] = []
        var draining = false
    }

    private let state: Locked<State>
    private let delivery: CallbackDelivery

    init(
        delivery: CallbackDelivery, updateHandler: @escaping (NetworkResponse<Value>) -> Void,
        completionHandler: @escaping (NetworkError?) -> Void
    ) {
        self.delivery = delivery
        state = Locked(State(updateHandler: updateHandler, completionHandler: completionHandler))
    }

    /// Sends the stored phase, or only the network's when `readsStore` is `false` (nothing can be stored).
    func start(_ request: NetworkRequest<Value>, on layer: NetworkLayer, readsStore: Bool) {
        guard readsStore else { return sendToNetwork(request, on: layer) }
        var stored = request
        stored.cachePolicy = .returnCacheDataDontLoad
        stored.deliversImmediately = deliversPhasesImmediately(request)
        let task = layer.send(
            stored, successHandler: { self.storedArrived(.success($0), request, on: layer) },
            errorHandler: { self.storedArrived(.failure($0), request, on: layer) })
        attach(task, phase: 1)
    }

    /// An `async` caller's phases end where they are settled, with no hop to the callback queue. A
    /// phase answered in place would then decode where it was started: with queue delivery it decodes off
    /// the caller's thread (the main thread, often) and its handler hops to the queue, as any request's.
    private func deliversPhasesImmediately(_ request: NetworkRequest<Value>) -> Bool {
        delivery.isImmediate || request.deliversImmediately
    }

    func cancel() {
        let current: (any NetworkTask)?? = state.withLock { state in
            guard !state.finished else { return nil }
            (state.finished, state.cancelled) = (true, true)
            defer { state.current = nil }
            return .some(state.current)
        }
        guard let current else { return }
        current?.cancel()
        // From any thread: the completion goes through `delivery`.
        enqueue(.completion(.cancelled))
        delivery.run { [self] in drain() }
    }

    /// Keeps the phase's task to cancel, unless that phase is over (its handler ran inside `send`).
    private func attach(_ task: any NetworkTask, phase: Int) {
        let cancelNow = state.withLock { state in
            guard state.phase == phase, !state.finished else { return state.cancelled }
            state.current = task
            return false
        }
        if cancelNow { task.cancel() }
    }

    /// Nothing stored (or a stored reply that couldn't be delivered) leaves the network's reply alone.
    private func storedArrived(
        _ result: Result<NetworkResponse<Value>, NetworkError>, _ request: NetworkRequest<Value>,
        on layer: NetworkLayer
    ) {
        if case .failure(.cancelled) = result { return finish(.cancelled) }
        let stored = try? result.get()
        let proceeds = state.withLock { state in
            guard !state.finished else { return false }
            state.phase = 2
            state.current = nil
            state.showedStored = stored != nil
            return true
        }
        guard proceeds else { return }
        if let stored { enqueue(.update(stored)) }
        // Sent before the update runs, which may take a while (a screen drawn); it runs first all the same.
        sendToNetwork(request, on: layer)
        drain()
    }

    private func sendToNetwork(_ request: NetworkRequest<Value>, on layer: NetworkLayer) {
        var fresh = request
        // A stored reply is asked about (a 304 revalidates it); without one the request loads.
        fresh.cachePolicy = .revalidate
        fresh.deliversImmediately = deliversPhasesImmediately(request)
        let task = layer.send(
            fresh, successHandler: { self.networkArrived(.success($0)) },
            errorHandler: { self.networkArrived(.failure($0)) })
        attach(task, phase: 2)
    }

    /// A stored reply that stood in for a failure (`stale-if-error`) is the failure: the completion gets
    /// its error, and it is shown only when nothing was.
    private func networkArrived(_ result: Result<NetworkResponse<Value>, NetworkError>) {
        switch result {
        case .success(let response):
            guard let error = response.cacheStatus.staleError else { return finish(nil, showing: response) }
            let showedStored = state.withLock { $0.showedStored }
            finish(error, showing: showedStored ? nil : response)
        case .failure(let error):
            finish(error)
        }
    }

    /// Runs where a phase's handler runs: on the callback queue, or where the phase was settled when
    /// delivery is immediate. Handlers queued there run in place, with no second hop.
    private func finish(_ error: NetworkError?, showing response: NetworkResponse<Value>? = nil) {
        let first = state.withLock { state in
            guard !state.finished else { return false }
            state.finished = true
            state.current = nil
            return true
        }
        guard first else { return }
        if let response { enqueue(.update(response)) }
        enqueue(.completion(error))
        drain()
    }

    /// Queues a handler to run: the callback queue may be concurrent, and the handlers must still run
    /// one at a time, in order.
    private func enqueue(_ handling: Handling) {
        state.withLock { $0.pending.append(handling) }
    }

    /// Runs the queued handlers in order, unless another drain does (it takes what this one queued).
    private func drain() {
        let drains = state.withLock { state in
            defer { state.draining = true }
            return !state.draining
        }
        guard drains else { return }
        while let handling = next() {
            switch handling {
            case .update(let response, let handler): handler?(response)
            case .completion(let error, let handler): handler?(error)
            }
        }
    }

    /// The next handler to run, with what it receives; an update after a cancel has none.
    private func next() -> Runnable? {
        state.withLock { state in
            guard !state.pending.isEmpty else {
                state.draining = false
                return nil
            }
            switch state.pending.removeFirst() {
            case .update(let response):
                return .update(response, state.cancelled ? nil : state.updateHandler)
            case .completion(let error):
                defer { (state.updateHandler, state.completionHandler) = (nil, nil) }
                return .completion(error, state.completionHandler)
            }
        }
    }

    private enum Handling {
        case update(NetworkResponse<Value>)
        case completion(NetworkError?)
    }

    private enum Runnable {
        case update(NetworkResponse<Value>, ((NetworkResponse<Value>) -> Void)?)
        case completion(NetworkError?, ((NetworkError?) -> Void)?)
    }
}
