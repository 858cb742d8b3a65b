import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How one request's body and reply travel: the reply in memory, which the engine keeps itself, or a
/// route a feature brings (a download's file, an upload's body, a stream's parser).
enum TransportRoute: Sendable {
    case data(limit: Int)
    case sink(any SinkRoute)

    /// For metrics; `nil` when the body is the request's `httpBody`.
    var bodyLength: Int64? {
        if case .sink(let route) = self { return route.bodyLength }
        return nil
    }

    /// The in-process transport, which has no sink, applies it; `nil` when the reply isn't kept in memory.
    var memoryLimit: Int? {
        switch self {
        case .data(let limit): limit
        case .sink(let route): route.memoryLimit
        }
    }

    func makeSink(for request: URLRequest, on transport: SessionTransport) -> any TransferSink {
        switch self {
        case .data(let limit): MemorySink(limit: limit, method: request.httpMethod)
        case .sink(let route): route.makeSink(for: request, on: transport)
        }
    }

    func makeBody() -> (any TransferBody)? {
        if case .sink(let route) = self { return route.makeBody() }
        return nil
    }
}

/// A feature's way for a reply (and an upload's body): the sink the transport writes to.
protocol SinkRoute: Sendable {
    /// The body's exact length; `nil` when it is the request's `httpBody`.
    var bodyLength: Int64? { get }
    var memoryLimit: Int? { get }
    /// `transport`: the session the sink's attempt is sent on.
    func makeSink(for request: URLRequest, on transport: SessionTransport) -> any TransferSink
    /// An upload's body, made afresh for every attempt.
    func makeBody() -> (any TransferBody)?
}

extension SinkRoute {
    var bodyLength: Int64? { nil }
    var memoryLimit: Int? { nil }
    func makeBody() -> (any TransferBody)? { nil }
}

/// An upload's body as a ``Transfer`` sends it, from the delegate queue unless said otherwise.
protocol TransferBody: AnyObject, Sendable {
    /// Makes the form URLSession sends by itself (``PlatformFacts/sendsUploadsNatively``); it may write a
    /// temporary file, so never on the delegate queue.
    func prepareNative() -> URLError?
    /// Puts the body and its exact length on `request` as `facts`' session sends it; returns the file an
    /// upload task sends, if any.
    func attach(to request: inout URLRequest, facts: PlatformFacts) -> URL?
    func sent(_ bytes: Int64)
    /// A fresh stream for libcurl's rewind, on libcurl's thread.
    func newStream() -> InputStream?
    /// The task's outcome `error`, or why the body's delivery makes it a failure.
    func check(_ error: (any Error)?, response: URLResponse?) -> (any Error)?
    /// Removes what the native form left on disk.
    func discardNative()
}
