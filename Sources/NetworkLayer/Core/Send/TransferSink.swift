import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a ``Transfer`` puts the reply: in memory up to a limit (``MemorySink``), or in a file that a
/// later download can resume (``FileSink``). The engine keeps the lifecycle (start, deadline, stop,
/// challenge, exactly one completion); a sink keeps only the body. New kinds of reply (a cache entry, a
/// stream of events) are new sinks.
///
/// Every method runs on the session's serial delegate queue, but ``awaitTurn(_:)`` and ``prepare(_:)``,
/// which run where the transfer starts, before its task exists.
protocol TransferSink: AnyObject {
    /// Whether the transfer may start now; if not, `start` runs once it may, exactly once, from any
    /// thread (a download whose destination a cancelled download still holds).
    func awaitTurn(_ start: @escaping @Sendable () -> Void) -> Bool
    /// The request the first task sends (a download adds its `Range`), or why nothing can be sent.
    func prepare(_ request: URLRequest) -> Result<URLRequest, URLError>
    /// A response head arrived.
    func open(_ response: URLResponse) -> SinkDecision
    /// Body bytes arrived; an error stops the transfer.
    func write(_ data: Data) -> URLError?
    /// What arrived so far is not the reply: a redirect is being followed (it belonged to the 3xx), or the
    /// transfer was stopped.
    func discard()
    /// The task that was stopped for ``SinkDecision/restart`` ended: the request to send instead.
    func restartRequest() -> URLRequest?
    /// The transfer is over: what it delivers. `failure` is why it failed, if it did.
    func close(failure: (any Error)?, response: URLResponse?, respondedAt: UInt64?) -> TransferResult
    /// The same, for a sink that must finish elsewhere first (a download's file, on its disk queue):
    /// `completion` receives the result once, from any thread. By default, ``close(failure:response:respondedAt:)``
    /// here and now.
    func close(
        failure: (any Error)?, response: URLResponse?, respondedAt: UInt64?,
        then completion: @escaping @Sendable (TransferResult) -> Void)
    /// Whether the reply may arrive faster than the delegate queue drains it: FoundationNetworking is
    /// then held back (see ``BackPressureQueue``). Read after ``open(_:)`` accepted a reply.
    var needsBackPressure: Bool { get }
    /// How long the body may go without data once the response head arrived; `nil` keeps the request's
    /// timeout. A stream sets its own idle timeout between events.
    var bodyIdleTimeout: TimeInterval? { get }
    /// The transfer this sink belongs to, for a sink that holds the connection back (a stream whose
    /// consumer is behind). Held weakly.
    func attach(_ flow: any TransferFlow)
}

/// What a sink may ask of its transfer: to stop reading the connection for a while.
protocol TransferFlow: AnyObject, Sendable {
    /// Stops reading the reply until ``resumeReading()`` (delegate queue). Pauses are counted: each
    /// is lifted by one resume.
    func pauseReading()
    /// Lifts one pause, from any thread; reading goes on once none is left.
    func resumeReading()
}

/// What a sink makes of a response head.
enum SinkDecision {
    /// Take the body.
    case accept
    /// Stop the transfer, failing with this error.
    case refuse(URLError)
    /// Stop this task and, once it has ended, start over with ``TransferSink/restartRequest()``.
    case restart
}

extension TransferSink {
    func close(
        failure: (any Error)?, response: URLResponse?, respondedAt: UInt64?,
        then completion: @escaping @Sendable (TransferResult) -> Void
    ) {
        completion(close(failure: failure, response: response, respondedAt: respondedAt))
    }

    func awaitTurn(_ start: @escaping @Sendable () -> Void) -> Bool { true }
    func prepare(_ request: URLRequest) -> Result<URLRequest, URLError> { .success(request) }
    func restartRequest() -> URLRequest? { nil }
    var bodyIdleTimeout: TimeInterval? { nil }
    func attach(_ flow: any TransferFlow) {}
}

/// The reply in memory, up to a limit: every ordinary request, and an upload's reply.
final class MemorySink: TransferSink {
    /// Longer replies, or replies of unknown length, are held back while they arrive: a gzip bomb or an
    /// endless body then can't fill the delegate queue before the size limit stops it.
    static let backPressureThreshold: Int64 = 1 << 20

    private let limit: Int
    private let checksContentLength: Bool
    private var body = Data()
    private(set) var needsBackPressure = false

    /// - Parameters:
    ///   - limit: The most body bytes (after content decoding) to accept.
    ///   - method: The request's method; a HEAD reply's `Content-Length` announces no body.
    init(limit: Int, method: String?) {
        self.limit = max(0, limit)
        checksContentLength = method != "HEAD"
    }

    func open(_ response: URLResponse) -> SinkDecision {
        let length = response.expectedContentLength
        if checksContentLength && length > Int64(limit) { return .refuse(Self.tooLarge(limit)) }
        let encoding = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Encoding")
        let encoded = encoding.map { !$0.isEmpty && $0.lowercased() != "identity" } ?? false
        needsBackPressure =
            checksContentLength && (encoded || length < 0 || length > Self.backPressureThreshold)
        // One allocation for a body of announced length, instead of one per doubling as 16 KB chunks arrive.
        if checksContentLength, !encoded, length > 0 { body.reserveCapacity(Int(length)) }
        return .accept
    }

    /// Past the limit the transfer stops and keeps none of the bytes.
    func write(_ data: Data) -> URLError? {
        guard body.count + data.count <= limit else {
            body = Data()
            return Self.tooLarge(limit)
        }
        body.append(data)
        return nil
    }

    func discard() {
        body = Data()
    }

    func close(failure: (any Error)?, response: URLResponse?, respondedAt: UInt64?) -> TransferResult {
        defer { body = Data() }
        return TransferResult(body: body, response: response, error: failure, respondedAt: respondedAt)
    }

    static func tooLarge(_ limit: Int) -> URLError {
        URLError(
            .dataLengthExceedsMaximum,
            userInfo: [NSLocalizedDescriptionKey: "The reply is larger than the limit of \(limit) bytes."])
    }
}

/// What the transport hands back for one request.
struct TransferResult: Sendable {
    /// The body as delivered (after gzip inflation); empty when the transfer was stopped.
    let body: Data
    let response: URLResponse?
    let error: (any Error)?
    /// When the response head arrived (uptime nanoseconds); `nil` if it never did.
    let respondedAt: UInt64?
    /// Body bytes a download wrote to its file instead of keeping in ``body``.
    var storedBytes: Int64 = 0
    /// Where the reply came from: only an in-process transport answers as a cache would.
    var cacheStatus: CacheStatus = .network
    /// The value an in-process transport answered with, in place of decoding ``body``.
    var providedValue: ProvidedValue?
}
