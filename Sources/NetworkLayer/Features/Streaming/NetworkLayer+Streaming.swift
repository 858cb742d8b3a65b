import Foundation

extension NetworkLayer {
    func performStream<Element>(
        _ request: NetworkRequest<Data>, as format: StreamFormat<Element>, options: ServerSentEventsOptions?,
        eventHandler: @escaping (Element) -> Void,
        completionHandler: @escaping (Result<StreamSummary, NetworkError>) -> Void
    ) -> NetworkTask {
        let request = request.accepting(format)
        let options = options ?? request.streamOptions ?? .default
        let state = StreamState(clock: clock)
        let (delivery, queue) = delivery(to: request.streamConsumer, or: eventHandler)
        let reconnects = format.isServerSentEvents && (options.reconnects ?? (request.method == .get))
        let channel = StreamChannel(
            format: format,
            context: StreamParserContext(
                decoder: decoder, maximumEventSize: max(1, options.maximumEventSize), state: state),
            delivery: delivery, expectation: ReplyExpectation(request), reconnects: reconnects,
            idleTimeout: options.effectiveIdleTimeout,
            errorBodyLimit: request.maximumResponseSize ?? maximumResponseSize)
        let reconnection = StreamReconnection(
            state: state, options: options, maximumDelay: (request.retryPolicy ?? retryPolicy).maximumDelay,
            reconnects: reconnects)
        let setup = StreamSetup(
            route: channel, reconnection: reconnection, callbackQueue: queue, state: state)
        let finish = { (outcome: Result<StreamSummary, NetworkError>) in
            // Elements queued behind the completion are dropped: none may follow it.
            delivery.close()
            completionHandler(outcome)
        }
        var returned: (() -> Void)?
        let task = startCall(
            request, stream: setup, returned: &returned,
            successHandler: { finish(.success(state.summary(of: $0))) },
            errorHandler: { finish(.failure($0)) })
        return StreamTask(task) { delivery.close() }
    }

    /// The completion's queue is serial, so the completion follows the last element.
    private func delivery<Element>(
        to consumer: (any Sendable)?, or eventHandler: @escaping (Element) -> Void
    ) -> (StreamDelivery<Element>, DispatchQueue) {
        if let buffer = consumer as? AsyncStreamBuffer<Element> {
            return (StreamDelivery(consumer: buffer.append), Queues.work)
        }
        // The main queue is serial already, and handlers written for the main actor stay on it as such.
        let queue =
            callbackQueue === DispatchQueue.main
            ? callbackQueue : DispatchQueue(label: "NetworkLayer.stream", target: callbackQueue)
        return (StreamDelivery(eventHandler, on: queue), queue)
    }
}

/// A stream's task: a cancel stops its elements at once, before the request itself is stopped.
final class StreamTask: NetworkTask {
    private let request: any NetworkTask
    private let stopElements: @Sendable () -> Void

    init(_ request: any NetworkTask, stopElements: @escaping @Sendable () -> Void) {
        self.request = request
        self.stopElements = stopElements
    }

    func cancel() {
        stopElements()
        request.cancel()
    }

    /// The request's own: a stream waiting for its server moves ahead or behind as any request does.
    var priority: RequestPriority {
        get { request.priority }
        set { request.priority = newValue }
    }
}
