import Foundation
import NetworkLayer

extension DummyNetworkLayer {
    /// The stream behind ``stream(_:as:options:eventHandler:completionHandler:)``: `send` answers with the
    /// body; the body is parsed and delivered before the completion.
    func answerStream<Element>(
        _ request: NetworkRequest<Data>, as format: StreamFormat<Element>, options: ServerSentEventsOptions?,
        eventHandler: @escaping (Element) -> Void,
        completionHandler: @escaping (Result<StreamSummary, NetworkError>) -> Void
    ) -> NetworkTask {
        let options = options ?? request.streamOptions ?? .default
        let state = StreamState()
        let feed = DummyStreamFeed(
            parser: format.makeParser(
                StreamParserContext(
                    decoder: decoder, maximumEventSize: max(1, options.maximumEventSize), state: state)),
            state: state, deliveryQueue: deliveryQueue, eventHandler: eventHandler)
        let task = send(
            request.accepting(format),
            successHandler: { response in
                // A body answered at once (not pushed) is the whole stream.
                let outcome = feed.finish(with: response.value)
                feed.close()
                completionHandler(outcome.map { feed.summary(of: response) })
            },
            errorHandler: { error in
                feed.close()
                completionHandler(.failure(error))
            })
        pendingRequests.last(where: { $0.task === task })?.stream = feed
        return task
    }
}

/// What a held stream's pushes go to.
protocol DummyStreamFeeding: AnyObject, Sendable {
    /// Delivers the elements `bytes` complete; returns the error that ends the stream (an element that
    /// doesn't decode, an event too large) the first time one occurs.
    func push(_ bytes: Data) -> NetworkError?
}

/// One dummy stream: the format's parser and the event handler. Pushes come from the test, one at a
/// time; the lock keeps a push on one thread from overlapping a cancel on another.
final class DummyStreamFeed<Element>: DummyStreamFeeding, @unchecked Sendable {
    private struct State {
        /// Keeps what it has read of an unfinished element, so it is used only under the lock.
        let parser: StreamParser<Element>
        var isOpen = true
        var failure: NetworkError?
        var count = 0
        var bytes = 0
    }

    private let state: Locked<State>
    private let eventHandler: (Element) -> Void
    private let streamState: StreamState
    /// Where pushed elements are delivered (the layer's at the time of the request); `nil` delivers on
    /// the pushing thread.
    private let deliveryQueue: DispatchQueue?

    init(
        parser: StreamParser<Element>, state: StreamState, deliveryQueue: DispatchQueue?,
        eventHandler: @escaping (Element) -> Void
    ) {
        self.state = Locked(State(parser: parser))
        streamState = state
        self.deliveryQueue = deliveryQueue
        self.eventHandler = eventHandler
    }

    func push(_ bytes: Data) -> NetworkError? {
        let (elements, failure) = parse(bytes)
        if !elements.isEmpty {
            let deliver = UncheckedSendable(value: { [self] in
                for element in elements where state.withLock({ $0.isOpen }) { eventHandler(element) }
            })
            if let deliveryQueue { deliveryQueue.async { deliver.value() } } else { deliver.value() }
        }
        return failure
    }

    /// Parses `bytes`: the elements they complete, and the error they first hit.
    private func parse(_ bytes: Data) -> (elements: [Element], failure: NetworkError?) {
        state.withLock { state in
            guard state.isOpen, state.failure == nil else { return ([], nil) }
            let batch = state.parser.parse(bytes)
            state.bytes += bytes.count
            state.count += batch.elements.count
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
            state.count += batch.elements.count
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

    func summary(of response: NetworkResponse<Data>) -> StreamSummary {
        state.withLock { state in
            StreamSummary(
                statusCode: response.statusCode, headers: response.headers, url: response.url,
                eventCount: state.count, byteCount: state.bytes, lastEventID: streamState.reportedLastEventID,
                metrics: response.metrics)
        }
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
