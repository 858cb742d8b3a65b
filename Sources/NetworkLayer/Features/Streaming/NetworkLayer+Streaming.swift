import Foundation

extension NetworkLayer {
    /// The pipeline behind ``stream(_:as:options:eventHandler:completionHandler:)``: the request goes
    /// through ``startCall(_:stream:successHandler:errorHandler:)`` with a stream route, and its elements
    /// go to `eventHandler` on the callback queue, or straight to an `async` stream's buffer.
    func performStream<Element>(
        _ request: NetworkRequest<Data>, as format: StreamFormat<Element>, options: ServerSentEventsOptions?,
        eventHandler: @escaping (Element) -> Void,
        completionHandler: @escaping (Result<StreamSummary, NetworkError>) -> Void
    ) -> NetworkTask {
        let request = request.accepting(format)
        let options = options ?? request.streamOptions ?? .default
        let state = StreamState(clock: clock)
        let buffer = request.streamConsumer as? AsyncStreamBuffer<Element>
        let queue =
            buffer == nil ? Self.serialQueue(on: callbackQueue) : AsyncStreamBuffer<Element>.completionQueue
        let delivery = StreamDelivery<Element>(
            consumer: buffer.map { buffer in buffer.append } ?? Self.handing(to: eventHandler, on: queue))
        let reconnects = format.kind == .serverSentEvents && (options.reconnects ?? (request.method == .get))
        // The reconnection floor beats a retry policy allowing shorter waits (else a tight loop); the
        // policy keeps its own longest wait for failures before the first element.
        var longestReconnectionWait = (request.retryPolicy ?? retryPolicy).maximumDelay
        if reconnects {
            longestReconnectionWait = max(longestReconnectionWait, options.effectiveMinimumReconnectionDelay)
        }
        let context = StreamParserContext(
            decoder: UncheckedSendable(value: decoder), maximumEventSize: max(1, options.maximumEventSize),
            state: state)
        let channel = StreamChannel(
            format: format, context: context, delivery: delivery,
            acceptableContentTypes: request.acceptableContentTypes,
            acceptableStatusCodes: request.acceptableStatusCodes, reconnects: reconnects,
            // As for a request's timeout, a value that can't be one (zero, negative, NaN) is no value.
            idleTimeout: options.idleTimeout.flatMap {
                $0 > 0 ? min($0, RequestBuilder.longestTimeout) : nil
            },
            errorBodyLimit: request.maximumResponseSize ?? maximumResponseSize)
        let setup = StreamSetup(
            route: channel,
            reconnection: StreamReconnection(
                state: state, options: options,
                maximumDelay: longestReconnectionWait, reconnects: reconnects),
            callbackQueue: queue, state: state)
        var returned: (() -> Void)?
        let task = startCall(
            request, stream: setup, returned: &returned,
            successHandler: { response in
                // Elements queued behind the completion are dropped: none may follow it.
                delivery.close()
                completionHandler(
                    .success(
                        StreamSummary(
                            statusCode: response.statusCode, headers: response.headers, url: response.url,
                            eventCount: state.eventCount, byteCount: state.byteCount,
                            reconnectCount: state.reconnectCount,
                            lastEventID: state.reportedLastEventID,
                            metrics: response.metrics)))
            },
            errorHandler: { error in
                delivery.close()
                completionHandler(.failure(error))
            })
        return StreamTask(task) { delivery.close() }
    }

    /// One stream's handlers run serially on the callback queue, so the completion follows the last element.
    private static func serialQueue(on callbackQueue: DispatchQueue) -> DispatchQueue {
        // The main queue is serial already, and handlers written for the main actor stay on it as such.
        callbackQueue === DispatchQueue.main
            ? callbackQueue : DispatchQueue(label: "NetworkLayer.stream", target: callbackQueue)
    }

    /// Runs `eventHandler` per element on `queue` until the delivery closes, then reports the batch consumed.
    private static func handing<Element>(
        to eventHandler: @escaping (Element) -> Void, on queue: DispatchQueue
    ) -> StreamDelivery<Element>.Consumer {
        // The handler is not Sendable: it runs only on `queue` (see UncheckedSendable).
        let handler = UncheckedSendable(value: eventHandler)
        return { batch, receipt in
            let batch = UncheckedSendable(value: batch)
            queue.async {
                for element in batch.value {
                    guard receipt.isWanted() else { break }
                    handler.value(element)
                }
                receipt.consumed()
            }
        }
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
}
