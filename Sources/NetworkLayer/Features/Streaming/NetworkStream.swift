import Foundation

extension NetworkLayer {
    /// Streams the reply to `request` as an `async` sequence of elements: it ends with the stream, throws
    /// the ``NetworkError`` a failed stream ends with, and cancels the request when the consuming task is
    /// cancelled or stops iterating. The request starts with the first call to `next()`.
    ///
    /// ```swift
    /// for try await event in network.stream(request, as: .serverSentEvents) {
    ///     transcript += event.data
    /// }
    /// ```
    ///
    /// A consumer that doesn't ask for the next element holds the connection back: elements are buffered
    /// up to a bound, never without one. Goes through ``stream(_:as:options:eventHandler:completionHandler:)``,
    /// so a test double that scripts streams serves this form too.
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
        NetworkStream(layer: self, request: request, format: format, options: options)
    }
}

/// The elements of a streamed reply, as an `AsyncSequence`: see
/// ``NetworkLayer/stream(_:as:options:)``. Iterate it once.
public struct NetworkStream<Element: Sendable>: AsyncSequence, Sendable {
    /// What iterating it throws.
    public typealias Failure = NetworkError

    private let start: @Sendable (AsyncStreamBuffer<Element>) -> NetworkTask

    init(
        layer: NetworkLayer, request: NetworkRequest<Data>, format: StreamFormat<Element>,
        options: ServerSentEventsOptions?
    ) {
        // The request is not Sendable only for its handler-typed members, which a stream has none of.
        let request = UncheckedSendable(value: request)
        start = { buffer in
            var request = request.value
            request.streamConsumer = buffer
            return layer.stream(
                request, as: format, options: options,
                eventHandler: { buffer.append([$0], StreamReceipt(isWanted: { true }, consumed: {})) },
                completionHandler: { buffer.finish($0) })
        }
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

        /// The next element; `nil` once the stream ended well. Throws the error the stream failed with,
        /// or ``NetworkError/cancelled`` when the task awaiting it was cancelled.
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

/// Elements waiting for an `async` consumer. The transport appends them on the session's delegate queue
/// (a test double, on its delivery queue); `next()` takes them from the consuming task; each batch is
/// reported consumed once its last element is taken, which is what lets a held connection read on.
///
/// Its state is behind its lock; each element is handed from the appending thread to the consuming task
/// once (``NetworkStream`` requires `Sendable` elements; the pipeline that appends doesn't know that).
final class AsyncStreamBuffer<Element>: Sendable {
    /// Where the stream's completion runs: no caller queue is involved.
    static var completionQueue: DispatchQueue { Queues.work }

    private struct State {
        var started = false
        var task: NetworkTask?
        var batches: [(elements: [Element], receipt: StreamReceipt)] = []
        var index = 0
        var outcome: Result<StreamSummary, NetworkError>?
        var waiter: CheckedContinuation<Void, Never>?
        var cancelled = false
        /// The consumer has seen the end (or the cancel) and asks for nothing more.
        var consumerDone = false
        /// For ``whenIdle(_:)``: run when the consumer next waits for an element, or is done.
        var idleHandlers: [@Sendable () -> Void] = []
    }

    private let state = Locked(State())
    private let start: @Sendable (AsyncStreamBuffer<Element>) -> NetworkTask

    init(start: @escaping @Sendable (AsyncStreamBuffer<Element>) -> NetworkTask) {
        self.start = start
    }

    /// The transport's consumer: takes a batch without blocking.
    func append(_ batch: [Element], _ receipt: StreamReceipt) {
        let (taken, waiter): (Bool, CheckedContinuation<Void, Never>?) = state.withLock { state in
            guard !state.cancelled, state.outcome == nil else { return (false, nil) }
            state.batches.append((batch, receipt))
            defer { state.waiter = nil }
            return (true, state.waiter)
        }
        if !taken { receipt.consumed() }
        waiter?.resume()
    }

    /// The stream ended; elements already buffered are still taken first.
    func finish(_ outcome: Result<StreamSummary, NetworkError>) {
        let waiter: CheckedContinuation<Void, Never>? = state.withLock { state in
            if state.outcome == nil { state.outcome = state.cancelled ? .failure(.cancelled) : outcome }
            state.task = nil
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// The consumer stopped: the stream is cancelled and what is buffered dropped.
    func cancel() {
        let (task, receipts, waiter): (NetworkTask?, [StreamReceipt], CheckedContinuation<Void, Never>?) =
            state.withLock { state in
                state.cancelled = true
                defer {
                    state.batches = []
                    state.index = 0
                    state.task = nil
                    state.waiter = nil
                }
                return (state.task, state.batches.map(\.receipt), state.waiter)
            }
        task?.cancel()
        for receipt in receipts { receipt.consumed() }
        waiter?.resume()
        consumerIsDone()
    }

    func next() async throws(NetworkError) -> Element? {
        // A task cancelled before it began sends nothing.
        if Task.isCancelled { cancel() }
        let begin = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started && !state.cancelled
        }
        if begin {
            let task = start(self)
            let cancelledMeanwhile = state.withLock { state -> Bool in
                guard state.outcome == nil, !state.cancelled else { return state.cancelled }
                state.task = task
                return false
            }
            if cancelledMeanwhile { task.cancel() }
        }
        while true {
            if Task.isCancelled { cancel() }
            switch take() {
            case .element(let element): return element
            case .end(let outcome):
                consumerIsDone()
                try outcome.get()
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
                        defer { state.idleHandlers = [] }
                        return (false, state.idleHandlers)
                    }
                    for handler in idle { handler() }
                    if resumeNow { continuation.resume() }
                }
            } onCancel: {
                self.cancel()
            }
        }
    }

    /// The consumer asks for nothing more: every idle handler runs, now and from now on.
    private func consumerIsDone() {
        let idle = state.withLock { state in
            state.consumerDone = true
            defer { state.idleHandlers = [] }
            return state.idleHandlers
        }
        for handler in idle { handler() }
    }

    private enum Step {
        case element(Element)
        case end(Result<Void, NetworkError>)
        case wait
    }

    private func take() -> Step {
        let (step, receipt): (Step, StreamReceipt?) = state.withLock { state in
            if state.cancelled { return (.end(.failure(.cancelled)), nil) }
            if let batch = state.batches.first {
                let element = batch.elements[state.index]
                state.index += 1
                guard state.index == batch.elements.count else { return (.element(element), nil) }
                state.batches.removeFirst()
                state.index = 0
                return (.element(element), batch.receipt)
            }
            switch state.outcome {
            case .success?: return (.end(.success(())), nil)
            case .failure(let error)?: return (.end(.failure(error)), nil)
            case nil: return (.wait, nil)
            }
        }
        receipt?.consumed()
        return step
    }
}

extension AsyncStreamBuffer: StreamConsumerIdling {
    package func whenIdle(_ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.waiter != nil || state.consumerDone { return true }
            state.idleHandlers.append(body)
            return false
        }
        if now { body() }
    }
}
