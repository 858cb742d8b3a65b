import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client that reads an event stream and hands each event's data to `onEvent` on its handler queue,
/// then calls `done` once, there too.
protocol StreamClient: Sendable {
    var name: String { get }
    func read(
        _ url: URL, onEvent: @escaping @Sendable (Substring) -> Void, done: @escaping @Sendable (Bool) -> Void
    )
}

/// The layer: `stream(_:as: .serverSentEvents)`.
struct LayerStreamClient: StreamClient {
    let name = "NetworkLayer"
    let layer: NetworkLayer

    init(queue: DispatchQueue) {
        layer = NetworkLayer(callbackQueue: queue, cache: nil)
    }

    func read(
        _ url: URL, onEvent: @escaping @Sendable (Substring) -> Void, done: @escaping @Sendable (Bool) -> Void
    ) {
        // The raw client doesn't reconnect either (and the benchmark's streams would start over).
        let options = ServerSentEventsOptions(reconnects: false)
        layer.stream(NetworkRequest(urlString: url.absoluteString), as: .serverSentEvents, options: options) {
            event in
            onEvent(event.data[...])
        } completionHandler: { result in
            done((try? result.get()) != nil)
        }
    }
}

/// Raw URLSession, as an article writes an event-stream reader: a data task whose delegate appends each
/// chunk to a buffer, cuts events at blank lines, takes their `data:` lines and hands each event to the
/// handler queue with `async`.
final class RawStreamClient: NSObject, StreamClient, URLSessionDataDelegate, @unchecked Sendable {
    let name = "raw URLSession"
    private let queue: DispatchQueue
    private var session: URLSession!
    // Touched on the session's serial delegate queue only.
    private var buffer = Data()
    private var onEvent: (@Sendable (Substring) -> Void)?
    private var done: (@Sendable (Bool) -> Void)?

    init(queue: DispatchQueue) {
        self.queue = queue
        super.init()
        let delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: .default, delegate: self, delegateQueue: delegateQueue)
    }

    func read(
        _ url: URL, onEvent: @escaping @Sendable (Substring) -> Void, done: @escaping @Sendable (Bool) -> Void
    ) {
        session.delegateQueue.addOperation {
            self.buffer = Data()
            self.onEvent = onEvent
            self.done = done
            var request = URLRequest(url: url)
            request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
            self.session.dataTask(with: request).resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        buffer.append(data)
        let separator = Data("\n\n".utf8)
        while let end = buffer.range(of: separator) {
            let block = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
            buffer.removeSubrange(buffer.startIndex..<end.upperBound)
            let lines = block.split(separator: "\n").filter { $0.hasPrefix("data:") }
            let event = lines.map { $0.dropFirst(5).drop { $0 == " " } }.joined(separator: "\n")
            let onEvent = onEvent
            queue.async { onEvent?(event[...]) }
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let done = done
        queue.async { done?(error == nil) }
    }
}
