import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a streamed reply goes: a 2xx of the right type through the parser to the delivery, unbounded;
/// any other reply in memory up to the layer's limit, to fail with its body. One per connection, on the
/// delegate queue.
final class StreamSink<Element>: TransferSink {
    private let parser: StreamParser<Element>
    private let delivery: StreamDelivery<Element>
    private let state: StreamState
    private let acceptableContentTypes: [String]?
    private let acceptableStatusCodes: Set<Int>?
    /// A reconnecting SSE stream: its clean end is a lost connection, to reconnect.
    private let endIsLostConnection: Bool
    private let errorBody: MemorySink
    let bodyIdleTimeout: TimeInterval?
    private weak var flow: (any TransferFlow)?
    private var isStreaming = false
    private var failure: NetworkError?
    private var bytes = 0
    private(set) var needsBackPressure = false

    init(
        parser: StreamParser<Element>, delivery: StreamDelivery<Element>, state: StreamState,
        acceptableContentTypes: [String]?, acceptableStatusCodes: Set<Int>?, endIsLostConnection: Bool,
        idleTimeout: TimeInterval?, errorBodyLimit: Int, method: String?
    ) {
        self.parser = parser
        self.delivery = delivery
        self.state = state
        self.acceptableContentTypes = acceptableContentTypes
        self.acceptableStatusCodes = acceptableStatusCodes
        self.endIsLostConnection = endIsLostConnection
        bodyIdleTimeout = idleTimeout
        errorBody = MemorySink(limit: errorBodyLimit, method: method)
    }

    func attach(_ flow: any TransferFlow) {
        self.flow = flow
    }

    func open(_ response: URLResponse) -> SinkDecision {
        let http = response as? HTTPURLResponse
        let status = http?.statusCode ?? 0
        let type = http?.value(forHTTPHeaderField: "Content-Type")
        let typeMatches =
            acceptableContentTypes.map { types in type.map { MediaType.matches($0, anyOf: types) } ?? false }
            ?? true
        // 204 is a server's way to say "no stream" (and to stop reconnecting).
        let statusMatches = acceptableStatusCodes?.contains(status) ?? (200..<300).contains(status)
        guard statusMatches, status != 204, typeMatches else {
            return errorBody.open(response)
        }
        isStreaming = true
        state.connectionOpened()
        delivery.connectionOpened()
        // A stream is as long as the server likes: libcurl is held back whenever the delegate queue lags.
        needsBackPressure = true
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
        state.received(bytes: bytes, events: batch.count)
        let flow = flow
        delivery.deliver(batch, pause: { flow?.pauseReading() }, resume: { flow?.resumeReading() })
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
        if isStreaming, failure == nil, endIsLostConnection {
            failure = URLError(
                .networkConnectionLost, userInfo: [NSLocalizedDescriptionKey: "The server ended the stream."])
        }
        var result = errorBody.close(failure: failure, response: response, respondedAt: respondedAt)
        result.storedBytes = Int64(bytes)
        return result
    }
}

final class StreamChannel<Element>: StreamRoute, Sendable {
    let format: StreamFormat<Element>
    let context: StreamParserContext
    let delivery: StreamDelivery<Element>
    let acceptableContentTypes: [String]?
    let acceptableStatusCodes: Set<Int>?
    let reconnects: Bool
    let idleTimeout: TimeInterval?
    let errorBodyLimit: Int

    init(
        format: StreamFormat<Element>, context: StreamParserContext, delivery: StreamDelivery<Element>,
        acceptableContentTypes: [String]?, acceptableStatusCodes: Set<Int>?, reconnects: Bool,
        idleTimeout: TimeInterval?, errorBodyLimit: Int
    ) {
        self.format = format
        self.context = context
        self.delivery = delivery
        self.acceptableContentTypes = acceptableContentTypes
        self.acceptableStatusCodes = acceptableStatusCodes
        self.reconnects = reconnects
        self.idleTimeout = idleTimeout
        self.errorBodyLimit = errorBodyLimit
    }

    func makeSink(for request: URLRequest, on transport: SessionTransport) -> any TransferSink {
        StreamSink(
            parser: format.makeParser(context), delivery: delivery, state: context.state,
            acceptableContentTypes: acceptableContentTypes, acceptableStatusCodes: acceptableStatusCodes,
            endIsLostConnection: reconnects && format.kind == .serverSentEvents, idleTimeout: idleTimeout,
            errorBodyLimit: errorBodyLimit, method: request.httpMethod)
    }
}

/// A stream, as a ``TransportRoute`` sees it: whatever its elements are.
protocol StreamRoute: SinkRoute {}
