import Foundation
import NetworkLayer

extension DummyResponder {
    /// The dummy's streams: the request goes through the layer's `send` like any other (recorded,
    /// stubbed, held, intercepted, monitored), and the `Data` it is answered with is the stream's body,
    /// parsed by the format's real parser: each element goes to `eventHandler` before the completion. A
    /// held stream is fed one piece at a time (see ``DummyPendingRequest/push(_:)-(Data)``).
    func stream<Element>(
        _ request: NetworkRequest<Data>, as format: StreamFormat<Element>, options: ServerSentEventsOptions?,
        on layer: NetworkLayer, eventHandler: @escaping (Element) -> Void,
        completionHandler: @escaping (Result<StreamSummary, NetworkError>) -> Void
    ) -> NetworkTask {
        let options = options ?? request.streamOptions ?? .default
        let streamState = StreamState(clock: layer.clock)
        let feed = DummyStreamFeed(
            parser: format.makeParser(
                StreamParserContext(
                    decoder: layer.decoder, maximumEventSize: max(1, options.maximumEventSize),
                    state: streamState)),
            state: streamState, deliveryQueue: state.withLock { $0.deliveryQueue },
            consumer: request.streamConsumer as? AsyncStreamBuffer<Element>, eventHandler: eventHandler)
        // The feed rides with the request, so a held attempt is a stream before any test can see it.
        var request = request.accepting(format)
        request.streamConsumer = feed
        return layer.send(
            request,
            successHandler: { response in
                // A body answered at once (not pushed) is the whole stream.
                let outcome = feed.finish(with: response.value)
                feed.close()
                completionHandler(outcome.map { streamState.summary(of: response) })
            },
            errorHandler: { error in
                feed.close()
                completionHandler(.failure(error))
            })
    }
}

/// What a held stream's pushes go to.
protocol DummyStreamFeeding: AnyObject, Sendable {
    /// Delivers the elements `bytes` complete; returns the error that ends the stream (an element that
    /// doesn't decode, an event too large) the first time one occurs.
    func push(_ bytes: Data) -> NetworkError?

    /// Runs `body` once every element pushed so far was consumed: its event handler has returned, and an
    /// `async` consumer has taken it and asks for the next (or stopped).
    func whenConsumed(_ body: @escaping @Sendable () -> Void)
}

/// One dummy stream: the format's parser and the event handler. Pushes come from the test, one at a
/// time; the lock keeps a push on one thread from overlapping a cancel on another.
final class DummyStreamFeed<Element>: DummyStreamFeeding, @unchecked Sendable {
    private struct State {
        /// Keeps what it has read of an unfinished element, so it is used only under the lock.
        let parser: StreamParser<Element>
        var isOpen = true
        var failure: NetworkError?
        /// Pushed elements on their way to the event handler on the delivery queue.
        var deliveries = 0
        /// What waits for those deliveries: see `whenConsumed`.
        var afterDeliveries: [@Sendable () -> Void] = []
    }

    private let state: Locked<State>
    private let eventHandler: (Element) -> Void
    private let streamState: StreamState
    /// Where pushed elements are delivered (the layer's at the time of the request); `nil` delivers on
    /// the pushing thread.
    private let deliveryQueue: DispatchQueue?
    /// The `async` consumer behind `eventHandler`, when the stream is a `NetworkStream`: the event
    /// handler only buffers for it, so an element is consumed once it has taken it.
    private let consumer: AsyncStreamBuffer<Element>?

    init(
        parser: StreamParser<Element>, state: StreamState, deliveryQueue: DispatchQueue?,
        consumer: AsyncStreamBuffer<Element>?, eventHandler: @escaping (Element) -> Void
    ) {
        self.state = Locked(State(parser: parser))
        streamState = state
        self.deliveryQueue = deliveryQueue
        self.consumer = consumer
        self.eventHandler = eventHandler
    }

    func push(_ bytes: Data) -> NetworkError? {
        let (elements, failure) = parse(bytes)
        if !elements.isEmpty {
            let deliver = UncheckedSendable(value: { [self] in
                for element in elements where state.withLock({ $0.isOpen }) { eventHandler(element) }
            })
            if let deliveryQueue {
                state.withLock { $0.deliveries += 1 }
                deliveryQueue.async { [self] in
                    deliver.value()
                    let waiting = state.withLock { state -> [@Sendable () -> Void] in
                        state.deliveries -= 1
                        guard state.deliveries == 0 else { return [] }
                        defer { state.afterDeliveries = [] }
                        return state.afterDeliveries
                    }
                    for body in waiting { body() }
                }
            } else {
                deliver.value()
            }
        }
        return failure
    }

    func whenConsumed(_ body: @escaping @Sendable () -> Void) {
        let consumer = consumer
        let afterDeliveries: @Sendable () -> Void = {
            if let consumer { consumer.whenIdle(body) } else { body() }
        }
        let now = state.withLock { state in
            guard state.deliveries > 0 else { return true }
            state.afterDeliveries.append(afterDeliveries)
            return false
        }
        if now { afterDeliveries() }
    }

    /// Parses `bytes`: the elements they complete, and the error they first hit.
    private func parse(_ bytes: Data) -> (elements: [Element], failure: NetworkError?) {
        state.withLock { state in
            guard state.isOpen, state.failure == nil else { return ([], nil) }
            let batch = state.parser.parse(bytes)
            streamState.received(bytes: bytes.count, events: batch.elements.count)
            state.failure = batch.failure
            return (batch.elements.map(\.0), batch.failure)
        }
    }

    /// The rest of the body (`body`, when answered at once) and the end of the stream: delivered here and
    /// now, on the thread the answer runs on, before the completion.
    func finish(with body: Data) -> Result<Void, NetworkError> {
        var elements = parse(body).elements
        let ending: NetworkError? = state.withLock { state in
            guard state.failure == nil else { return state.failure }
            let batch = state.parser.end()
            streamState.received(bytes: 0, events: batch.elements.count)
            elements += batch.elements.map(\.0)
            return batch.failure
        }
        for element in elements { eventHandler(element) }
        return ending.map { .failure($0) } ?? .success(())
    }

    /// The completion is about to run: nothing more is delivered.
    func close() {
        state.withLock { $0.isOpen = false }
    }
}

extension Data {
    /// A `text/event-stream` body of `events`: what a test double answers a stream with.
    ///
    /// ```swift
    /// network.successResponse = Data.eventStream([ServerSentEvent(data: "Hello")])
    /// ```
    ///
    /// - Parameter events: The events, in their wire format.
    /// - Returns: The body.
    public static func eventStream(_ events: [ServerSentEvent]) -> Data {
        Data(events.map(\.wireFormat).joined().utf8)
    }

    /// A JSON Lines body of `values`, one JSON value per line.
    ///
    /// - Parameters:
    ///   - values: The values.
    ///   - encoder: Encodes each value.
    /// - Returns: The body.
    public static func jsonLines<Value: Encodable>(_ values: [Value], encoder: JSONEncoder = JSONEncoder())
        throws
        -> Data
    {
        try values.reduce(into: Data()) { body, value in body += try encoder.encode(value) + Data("\n".utf8) }
    }
}
