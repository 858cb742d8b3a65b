import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where a ``Transfer`` puts the reply (memory, a file, a cache entry, a stream): the engine keeps the
/// lifecycle, a sink only the body. Runs on the session's delegate queue, except ``awaitTurn(_:)`` and
/// ``prepare(_:)``, which run where the transfer starts.
protocol TransferSink: AnyObject {
    /// Whether the transfer may start now; if not, `start` runs once it may, from any thread (a download
    /// whose destination a cancelled download still holds).
    func awaitTurn(_ start: @escaping @Sendable () -> Void) -> Bool
    /// The request the first task sends (a download adds its `Range`), or why nothing can be sent.
    func prepare(_ request: URLRequest) -> Result<URLRequest, URLError>
    func open(_ response: URLResponse) -> SinkDecision
    /// An error stops the transfer.
    func write(_ data: Data) -> URLError?
    /// What arrived so far is not the reply: a redirect is being followed, or the transfer was stopped.
    func discard()
    /// The task stopped for ``SinkDecision/restart`` ended: the request to send instead.
    func restartRequest() -> URLRequest?
    func close(failure: (any Error)?, response: URLResponse?, respondedAt: UInt64?) -> TransferResult
    /// For a sink that must finish elsewhere first (a download's file, on its disk queue): `completion`
    /// runs once, from any thread.
    func close(
        failure: (any Error)?, response: URLResponse?, respondedAt: UInt64?,
        then completion: @escaping @Sendable (TransferResult) -> Void)
    /// Whether FoundationNetworking is held back (see ``BackPressureQueue``); read after ``open(_:)``.
    var needsBackPressure: Bool { get }
    /// How long the body may go without data after the head; `nil` keeps the request's timeout.
    var bodyIdleTimeout: TimeInterval? { get }
    /// For a sink that holds the connection back (a stream whose consumer is behind). Held weakly.
    func attach(_ flow: any TransferFlow)
}

/// What a sink may ask of its transfer: to stop reading the connection for a while.
protocol TransferFlow: AnyObject, Sendable {
    /// Stops reading until ``resumeReading()`` (delegate queue); each pause is lifted by one resume.
    func pauseReading()
    /// Lifts one pause, from any thread.
    func resumeReading()
}

enum SinkDecision {
    case accept
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
    /// Larger replies, or of unknown length, are held back: a gzip bomb or an endless body then can't fill
    /// the delegate queue before the size limit stops it.
    static let backPressureThreshold: Int64 = 1 << 20

    private let limit: Int
    private let checksContentLength: Bool
    private var body = Data()
    private(set) var needsBackPressure = false

    /// `method`: a HEAD reply's `Content-Length` announces no body.
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
        if checksContentLength, !encoded, length > 0 { body.reserveCapacity(Int(length)) }
        return .accept
    }

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

struct TransferResult: Sendable {
    /// As delivered (after gzip inflation); empty when the transfer was stopped.
    let body: Data
    let response: URLResponse?
    let error: (any Error)?
    /// Uptime nanoseconds; `nil` if the head never arrived.
    let respondedAt: UInt64?
    var storedBytes: Int64 = 0
    /// Only an in-process transport answers as a cache would.
    var cacheStatus: CacheStatus = .network
    /// Why the cache marked the reply as it did; `nil` when no cache looked at the attempt.
    var cacheReason: CacheReason?

    /// What the cache answered, for ``RequestMetrics``: a failure (no reply) has a reason but no status.
    typealias CacheAnswer = (status: CacheStatus?, reason: CacheReason)
    var cacheAnswer: CacheAnswer? { cacheReason.map { (response == nil ? nil : cacheStatus, $0) } }
    /// An in-process transport's answer, in place of decoding ``body``.
    var providedValue: ProvidedValue?
    /// The reply's header fields, once read in full (the chain's end, the cache, which stores them): the call
    /// takes them from here, as reading an `HTTPURLResponse`'s fields copies every one of them (on Linux,
    /// microseconds for a small reply).
    var headers: ResponseHeaders?
    /// The reply as a stage validated it (the policies validate each attempt's, to decide on a retry),
    /// so that the end of the chain takes it as it is instead of validating it again.
    var validated: Reply?
    /// How many times the transport asked for the body again to send the attempt once more (libcurl, on a
    /// kept-alive connection that turned out closed); see ``RequestMetrics/bodyResends``.
    var bodyResends = 0
}
