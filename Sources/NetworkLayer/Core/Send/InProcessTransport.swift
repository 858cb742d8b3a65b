import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Answers attempts in process: the transport under `DummyNetworkLayer`, so a test double runs the
/// layer's own pipeline (checks, refusals, retries, delivery).
package struct InProcessTransport: AttemptTransport {
    /// Calls `respond` once (in place, or later for a held reply) and returns what cancels it.
    package typealias Answer =
        @Sendable (
            _ attempt: URLRequest,
            _ respond: @escaping @Sendable (Result<InProcessReply, NetworkError>) -> Void
        ) -> @Sendable () -> Void

    private let answer: Answer
    /// The layer's clock: when a reply's head "arrived", for the metrics.
    private let clock: any NetworkClock

    /// A transport whose every attempt `answer` answers, on the layer's `clock`.
    package init(clock: any NetworkClock, answer: @escaping Answer) {
        self.clock = clock
        self.answer = answer
    }

    var refusal: String? { nil }
    func pinnedCookie(for request: URLRequest) -> PinnedCookie? { nil }

    func send(
        _ request: URLRequest, route: TransportRoute, redirectPolicy: RedirectPolicy,
        priority: RequestPriority, cookie: PinnedCookie?,
        completion: @escaping @Sendable (TransferResult) -> Void
    ) -> @Sendable () -> Void {
        let once = Once()
        let complete: @Sendable (TransferResult) -> Void = { if once.claim() { completion($0) } }
        let cancelAnswer = answer(request) { [clock] in
            complete(Self.result(of: $0, for: request, route: route, at: clock.now.uptimeNanoseconds))
        }
        return {
            cancelAnswer()
            complete(
                TransferResult(body: Data(), response: nil, error: URLError(.cancelled), respondedAt: nil))
        }
    }

    /// What a network transport would have handed back, the size limit applied.
    private static func result(
        of answer: Result<InProcessReply, NetworkError>, for request: URLRequest, route: TransportRoute,
        at now: UInt64
    ) -> TransferResult {
        if case .failure(let error) = answer { return TransferResult(failure: error) }
        guard case .success(let reply) = answer, let url = request.url,
            let response = HTTPURLResponse(
                url: url, statusCode: reply.statusCode, httpVersion: "HTTP/1.1", headerFields: reply.headers)
        else {
            return TransferResult(
                body: Data(), response: nil, error: NetworkError.invalidResponse, respondedAt: now)
        }
        if let limit = route.memoryLimit, reply.body.count > limit {
            return TransferResult(
                body: Data(), response: response, error: MemorySink.tooLarge(limit), respondedAt: now)
        }
        var result = TransferResult(body: reply.body, response: response, error: nil, respondedAt: now)
        result.cacheStatus = reply.cacheStatus
        result.providedValue = reply.provided
        return result
    }
}

/// One in-process answer; its optional `value` is used as is instead of decoding the body.
package struct InProcessReply: Sendable {
    package var statusCode: Int
    package var headers: [String: String]
    package var body: Data
    /// Used when it has the type the request expects; `nil` decodes ``body``.
    package var value: Any? {
        get { provided?.value }
        set { provided = newValue.map { ProvidedValue(value: $0) } }
    }
    package var cacheStatus: CacheStatus
    private(set) var provided: ProvidedValue?

    package init(
        statusCode: Int = 200, headers: [String: String] = [:], body: Data = Data(), value: Any? = nil,
        cacheStatus: CacheStatus = .network
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.cacheStatus = cacheStatus
        provided = value.map { ProvidedValue(value: $0) }
    }
}

/// A test's stubbed value (of the caller's type, not `Sendable`), handed from the answer to the one
/// delivery that uses it.
typealias ProvidedValue = UncheckedSendable<Any>
