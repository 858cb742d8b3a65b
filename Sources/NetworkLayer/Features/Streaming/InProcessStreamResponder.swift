import Foundation

/// A responder that also answers streams: a layer with one streams from what it answers.
package protocol InProcessStreamResponder: InProcessResponder {
    /// Streams `request`, sent on `layer`, from what the responder answers, in place of the layer's
    /// stream: its body is parsed by `format`'s real parser.
    func stream<Element>(
        _ request: NetworkRequest<Data>, as format: StreamFormat<Element>, options: ServerSentEventsOptions?,
        on layer: NetworkLayer, eventHandler: @escaping (Element) -> Void,
        completionHandler: @escaping (Result<StreamSummary, NetworkError>) -> Void
    ) -> NetworkTask
}
