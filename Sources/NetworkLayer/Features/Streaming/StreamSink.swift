import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a streamed reply goes: a 2xx of the right type through the parser to the delivery, unbounded;
/// any other reply in memory up to the layer's limit, to fail with its body. One per connection, on the
/// delegate queue.
final class StreamSink<Element>: TransferSink {
    private let channel: StreamChannel<Element>
    private let parser: StreamParser<Element>
    private let errorBody: MemorySink
    var bodyIdleTimeout: TimeInterval? { channel.idleTimeout }
    private weak var flow: (any TransferFlow)?
    private var isStreaming = false
    private var failure: NetworkError?
    private var bytes = 0
    /// A stream is as long as the server likes: libcurl is held back whenever the delegate queue lags.
    var needsBackPressure: Bool { isStreaming }

    init(_ channel: StreamChannel<Element>, method: String?) {
        self.channel = channel
        parser = channel.format.makeParser(channel.context)
        errorBody = MemorySink(limit: channel.errorBodyLimit, method: method)
    }

    func attach(_ flow: any TransferFlow) {
        self.flow = flow
    }

    func open(_ response: URLResponse) -> SinkDecision {
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 0
        let type = http?.value(forHTTPHeaderField: "Content-Type")
        var typeMatches = true
        if let types = channel.expectation.acceptableContentTypes {
            typeMatches = type.map { MediaType.matches($0, anyOf: types) } ?? false
        }
        // 204 is a server's way to say "no stream" (and to stop reconnecting).
        guard channel.expectation.accepts(status: status), status != 204, typeMatches else {
            return errorBody.open(response)
        }
        isStreaming = true
        channel.context.state.connectionOpened()
        channel.delivery.connectionOpened()
        return .accept
    }

    func write(_ data: Data) -> URLError? {
        guard isStreaming else { return errorBody.write(data) }
        bytes += data.count
        let batch = parser.parse(data)
        hand(batch.elements, bytes: data.count)
        guard let failure = batch.failure else { return nil }
        self.failure = failure
        return URLError(.cancelled)
    }

    private func hand(_ batch: [(Element, Int)], bytes: Int) {
        channel.context.state.received(bytes: bytes, events: batch.count)
        let flow = flow
        channel.delivery.deliver(batch, pause: { flow?.pauseReading() }, resume: { flow?.resumeReading() })
    }

    func discard() {
        errorBody.discard()
    }

    func close(failure: (any Error)?, response: URLResponse?, respondedAt: UInt64?) -> TransferResult {
        var failure: (any Error)? = self.failure ?? failure
        if isStreaming, failure == nil {
            let batch = parser.end()
            hand(batch.elements, bytes: 0)
            failure = batch.failure
        }
        // A reconnecting stream's clean end is a lost connection, to reconnect.
        if isStreaming, failure == nil, channel.reconnects {
            failure = URLError(
                .networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: "The server ended the stream."])
        }
        var result = errorBody.close(failure: failure, response: response, respondedAt: respondedAt)
        result.storedBytes = Int64(bytes)
        return result
    }
}

/// What every connection of one stream shares: each one's sink is made from it.
struct StreamChannel<Element>: SinkRoute {
    let format: StreamFormat<Element>
    let context: StreamParserContext
    let delivery: StreamDelivery<Element>
    /// The statuses and content types that make a reply the stream.
    let expectation: ReplyExpectation
    /// Only server-sent event streams reconnect.
    let reconnects: Bool
    let idleTimeout: TimeInterval?
    let errorBodyLimit: Int

    func makeSink(for request: URLRequest, on transport: SessionTransport) -> any TransferSink {
        StreamSink(self, method: request.httpMethod)
    }
}
