import Foundation

extension NetworkLayer {
    /// Streams the reply to `request` as an `async` sequence: it throws the ``NetworkError`` a failed
    /// stream ends with, and cancels the request when the task is cancelled or stops iterating. The
    /// request starts with the first `next()`.
    ///
    /// ```swift
    /// for try await event in network.stream(request, as: .serverSentEvents) {
    ///     transcript += event.data
    /// }
    /// ```
    ///
    /// A consumer that doesn't ask for more holds the connection back (the buffer is bounded). Goes
    /// through ``stream(_:as:options:eventHandler:completionHandler:)``, so test doubles serve it too.
    ///
    /// - Parameters:
    ///   - request: What to send.
    ///   - format: How the bytes become elements.
    ///   - options: Reconnection, idle timeout and event size; `nil` uses the request's.
    /// - Returns: The elements, as they arrive.
    public func stream<Element: Sendable>(
        _ request: NetworkRequest<Data>, as format: StreamFormat<Element>,
        options: ServerSentEventsOptions? = nil
    ) -> NetworkStream<Element> {
        // Unchecked: only the request's handler-typed members aren't Sendable, and a stream has none.
        let request = UncheckedSendable(value: request)
        return NetworkStream { buffer in
            var request = request.value
            request.streamConsumer = buffer
            return self.stream(
                request, as: format, options: options,
                eventHandler: { buffer.append([$0], StreamReceipt(isWanted: { true }, consumed: {})) },
                completionHandler: { buffer.finish($0) })
        }
    }
}

/// The elements of a streamed reply (see ``NetworkLayer/stream(_:as:options:)``), or the responses of
/// ``NetworkLayer/sendCacheThenNetwork(_:)``. Iterate it once.
public struct NetworkStream<Element: Sendable>: AsyncSequence, Sendable {
    /// What iterating it throws.
    public typealias Failure = NetworkError

    private let start: @Sendable (AsyncStreamBuffer<Element>) -> NetworkTask

    /// Elements that `start` feeds to the buffer: a stream's, or another request form's.
    init(start: @escaping @Sendable (AsyncStreamBuffer<Element>) -> NetworkTask) {
        self.start = start
    }

    /// The iterator; the request starts with its first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(buffer: AsyncStreamBuffer(start: start))
    }

    /// Takes the stream's elements one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        /// What `next()` throws.
        public typealias Failure = NetworkError

        private let buffer: AsyncStreamBuffer<Element>
        private let cancelOnRelease: CancelOnRelease

        init(buffer: AsyncStreamBuffer<Element>) {
            self.buffer = buffer
            cancelOnRelease = CancelOnRelease { buffer.cancel() }
        }

        /// The next element; `nil` once the stream ended well. Throws the stream's error, or
        /// ``NetworkError/cancelled`` when the awaiting task was cancelled.
        public mutating func next() async throws(NetworkError) -> Element? {
            try await buffer.next()
        }
    }
}

/// Cancels the stream when the last copy of its iterator goes away: the consumer stopped iterating.
private final class CancelOnRelease: Sendable {
    private let cancel: @Sendable () -> Void

    init(_ cancel: @escaping @Sendable () -> Void) {
        self.cancel = cancel
    }

    deinit { cancel() }
}

/// Elements waiting for an `async` consumer: appended on the delegate queue (a test double's delivery
/// queue), taken by `next()`; a batch is reported consumed once its last element is taken, which lets a
/// held connection read on. Unchecked hand-off: each element moves once, and ``NetworkStream`` requires
/// `Sendable` elements. Package: a test double's stream waits on ``whenIdle(_:)``.
package final class AsyncStreamBuffer<Element>: Sendable {
    private struct State {
        /// What starts the request: taken by the first `next()`.
        var start: (@Sendable (AsyncStreamBuffer<Element>) -> NetworkTask)?
        var task: NetworkTask?
        /// Each batch's elements not taken yet, and what is told once they all are.
        var batches: [(elements: ArraySlice<Element>, receipt: StreamReceipt)] = []
        var outcome: Result<StreamSummary, NetworkError>?
        var waiter: CheckedContinuation<Void, Never>?
        var cancelled = false
        /// Run when the consumer next waits for an element, or is done; `nil` once it is done, when they
        /// run at once.
        var idleHandlers: [@Sendable () -> Void]? = []
    }

    private let state: Locked<State>

    init(start: @escaping @Sendable (AsyncStreamBuffer<Element>) -> NetworkTask) {
        state = Locked(State(start: start))
    }

    func append(_ batch: [Element], _ receipt: StreamReceipt) {
        let (taken, waiter): (Bool, CheckedContinuation<Void, Never>?) = state.withLock { state in
            guard !state.cancelled, state.outcome == nil else { return (false, nil) }
            state.batches.append((batch[...], receipt))
            return (true, state.waiter.take())
        }
        if !taken { receipt.consumed() }
        waiter?.resume()
    }

    func finish(_ outcome: Result<StreamSummary, NetworkError>) {
        let waiter = state.withLock { state in
            if state.outcome == nil { state.outcome = state.cancelled ? .failure(.cancelled) : outcome }
            state.task = nil
            return state.waiter.take()
        }
        waiter?.resume()
    }

    func cancel() {
        let (task, receipts, waiter) = state.withLock { state in
            state.cancelled = true
            let receipts = state.batches.map(\.receipt)
            state.batches = []
            return (state.task.take(), receipts, state.waiter.take())
        }
        task?.cancel()
        for receipt in receipts { receipt.consumed() }
        waiter?.resume()
        consumerIsDone()
    }

    func next() async throws(NetworkError) -> Element? {
        // A task cancelled before it began sends nothing.
        if Task.isCancelled { cancel() }
        if let start = state.withLock({ $0.cancelled ? nil : $0.start.take() }) {
            let task = start(self)
            let cancelledMeanwhile = state.withLock { state in
                if state.outcome == nil, !state.cancelled { state.task = task }
                return state.cancelled
            }
            if cancelledMeanwhile { task.cancel() }
        }
        while true {
            if Task.isCancelled { cancel() }
            switch take() {
            case .element(let element): return element
            case .end(let outcome):
                consumerIsDone()
                _ = try outcome.get()
                return nil
            case .wait: break
            }
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let (resumeNow, idle) = state.withLock { state -> (Bool, [@Sendable () -> Void]) in
                        guard state.batches.isEmpty, state.outcome == nil, !state.cancelled else {
                            return (true, [])
                        }
                        state.waiter = continuation
                        // Not done: it is done only after the end, which it would have taken instead.
                        defer { state.idleHandlers = [] }
                        return (false, state.idleHandlers ?? [])
                    }
                    for handler in idle { handler() }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                self.cancel()
            }
        }
    }

    /// Tells a test double when the consumer has handled every element handed to it, so a test that
    /// pushed an event can assert on the result: runs `body` once the consumer has taken every element
    /// so far and waits, or has stopped; at once if it already has. Runs with no lock held, on the
    /// consumer's thread or the caller's.
    package func whenIdle(_ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.waiter == nil, state.idleHandlers != nil else { return true }
            state.idleHandlers?.append(body)
            return false
        }
        if now { body() }
    }

    private func consumerIsDone() {
        for handler in state.withLock({ $0.idleHandlers.take() }) ?? [] { handler() }
    }

    private enum Step {
        case element(Element)
        case end(Result<StreamSummary, NetworkError>)
        case wait
    }

    private func take() -> Step {
        let (step, receipt): (Step, StreamReceipt?) = state.withLock { state in
            if state.cancelled { return (.end(.failure(.cancelled)), nil) }
            guard !state.batches.isEmpty else { return (state.outcome.map(Step.end) ?? .wait, nil) }
            let element = state.batches[0].elements.removeFirst()
            guard state.batches[0].elements.isEmpty else { return (.element(element), nil) }
            return (.element(element), state.batches.removeFirst().receipt)
        }
        receipt?.consumed()
        return step
    }
}
