import Foundation

/// What answers a layer's requests in process instead of a session: the seam a test double plugs into
/// (`DummyNetworkLayer`), so the layer's own `send` runs the pipeline over an in-process transport, and
/// its streams come from what it answers.
package protocol InProcessResponder: Sendable {
    /// How `request`, sent on `layer`, is answered: asked once per call, before anything is built.
    func call<Value>(for request: NetworkRequest<Value>, on layer: NetworkLayer) -> InProcessCall

    /// Streams `request`, sent on `layer`, from what the responder answers, in place of the layer's
    /// stream: its body is parsed by `format`'s real parser.
    func stream<Element>(
        _ request: NetworkRequest<Data>, as format: StreamFormat<Element>, options: ServerSentEventsOptions?,
        on layer: NetworkLayer, eventHandler: @escaping (Element) -> Void,
        completionHandler: @escaping (Result<StreamSummary, NetworkError>) -> Void
    ) -> NetworkTask
}

/// One call answered in process: its attempts' answers, where its handlers run, and the task its caller
/// gets.
package struct InProcessCall {
    /// Answers each attempt of the call.
    let answer: InProcessTransport.Answer
    /// Where the call's handlers run; `nil` for the layer's own choice.
    let delivery: CallbackDelivery?
    /// Given the call's task once the call has begun (its first attempt answered or under way), returns
    /// the task the request method returns.
    let started: (any NetworkTask) -> any NetworkTask
    /// Runs once the request method has returned that task, known to ``NetworkLayer/cancelAll()``.
    let returned: () -> Void

    /// - Parameters:
    ///   - answer: Answers each attempt.
    ///   - delivery: Where handlers run; `nil` for the layer's own choice.
    ///   - started: Receives the call's task once the call has begun; returns the caller's task.
    ///   - returned: Runs once the request method has returned.
    package init(
        answer: @escaping InProcessTransport.Answer, delivery: CallbackDelivery?,
        started: @escaping (any NetworkTask) -> any NetworkTask, returned: @escaping () -> Void
    ) {
        self.answer = answer
        self.delivery = delivery
        self.started = started
        self.returned = returned
    }
}
