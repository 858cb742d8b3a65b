import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Turns monitor events into the store's records, redacted as the inspector was told, and hands each
/// changed record to `publish` (the tabs). Called on any layer's monitor queue: the store's lock orders
/// the changes.
struct EventRecorder: Sendable {
    let store: InspectorStore
    let redactor: Redactor
    /// The label of the monitor the events came through (a layer's), or "".
    let layer: String
    let publish: @Sendable (InspectorEvent) -> Void

    private var clock: InspectorClock { store.clock }

    /// The request began: it shows at once, before it waits for anything.
    func created(_ request: MonitoredRequest) {
        update(request, at: clock.now()) { _ in }
    }

    /// An attempt's request is final: the request is recorded (if new) with the attempt, its headers,
    /// body and curl command. Redaction runs here, outside the store's lock, and the first attempt to the
    /// request's own URL shows the URL redacted when the request began; the curl command is written from
    /// the redacted parts only when a page reads it.
    func built(_ request: URLRequest, for attempt: MonitoredAttempt) {
        let credentials = attempt.request.credentialHeaders
        let now = clock.now()
        let body = request.httpBody.flatMap { keptBody($0, credentials) }
        let isRequestURL = attempt.number == 1 && (request.url.map { $0 == attempt.request.url } ?? true)
        let url = isRequestURL ? nil : redactor.url(request.url ?? attempt.request.url)
        let headers = redactor.headers(request.allHTTPHeaderFields ?? [:], credentialHeaders: credentials)
        update(attempt.request, at: now) { [redactor, store] in
            $0.url = url ?? $0.url
            $0.method = request.httpMethod ?? $0.method
            let curl = CurlCommand(
                method: request.httpMethod ?? "GET", url: $0.url, headers: headers, body: body,
                bodyLimit: store.maximumBodyBytes, isRedacted: redactor.redacts)
            $0.attempts.append(.init(number: attempt.number, start: now, requestHeaders: headers, curl: curl))
            if let body { $0.requestBody = body }
        }
    }

    /// A reply arrived for an attempt.
    func received(_ response: HTTPURLResponse, body: Data, for attempt: MonitoredAttempt) {
        let credentials = attempt.request.credentialHeaders
        // Names and values are strings: a cast, not an interpolation that builds each one again.
        let fields = response.allHeaderFields.lazy.map { field in
            (key: field.key as? String ?? "\(field.key)", value: field.value as? String ?? "\(field.value)")
        }
        let headers = redactor.headers(fields, credentialHeaders: credentials)
        let kept = keptBody(body, credentials)
        let now = clock.now()
        update(attempt.request, at: now) {
            $0.status = response.statusCode
            $0.responseBody = kept
            $0.changeAttempt(attempt.number) {
                $0.status = response.statusCode
                $0.responseHeaders = headers
                $0.end = now
            }
        }
    }

    /// An attempt failed and another follows after `delay` seconds.
    func willRetry(_ attempt: MonitoredAttempt, after delay: TimeInterval, because error: NetworkError) {
        let now = clock.now()
        update(attempt.request, at: now) {
            $0.retries = max($0.retries, attempt.number)
            $0.changeAttempt(attempt.number) {
                $0.error = error.message
                $0.retryDelay = delay * 1_000
                $0.end = $0.end ?? now
            }
        }
    }

    /// The request is over: its outcome, its times and its cost. A request answered without an attempt
    /// (a cache hit) is recorded here first.
    func finished(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        let start = clock.milliseconds(at: metrics.startDate)
        let end = start + metrics.duration * 1_000
        update(request, at: start) { record in
            record.start = start
            record.end = end
            record.bytesSent = metrics.bytesSent
            record.bytesReceived = metrics.bytesReceived
            record.retries = max(record.retries, metrics.attempts - 1)
            record.take(metrics)
            record.finish(with: result, cacheStatus: metrics.cacheStatus, cacheReason: metrics.cacheReason)
            record.phases = PhaseTimeline(record: record, metrics: metrics).phases
        }
        finishedTransfer(request, error: result.failure)
        if let events = metrics.eventCount {
            finishedStream(request, events: events, start: start, end: end, error: result.failure)
        }
    }

    private func keptBody(_ body: Data, _ credentials: Set<String>) -> BodyRecord? {
        BodyRecord(body, limit: store.maximumBodyBytes) { [redactor] in
            redactor.body($0, credentialHeaders: credentials)
        }
    }

    /// A disk cache keeps the request's reply in memory only: the reason is the cache's.
    func keptInMemoryOnly(_ request: MonitoredRequest, because reason: ResponseCache.MemoryOnlyReason) {
        update(request, at: clock.now()) { $0.cacheReason = "\(reason)" }
    }

    private func finishedStream(
        _ request: MonitoredRequest, events: Int, start: Double, end: Double, error: NetworkError?
    ) {
        let id = String(request.id)
        let url = redactor.url(request.url)
        let make = { StreamRecord(id: id, url: url, start: start) }
        let stream = store.updateStream(id, make: make) {
            $0.end = end
            $0.events = events
            if case .cancelled? = error {} else { $0.error = error?.message }
        }
        if let stream { publish(.stream(stream)) }
    }

    /// Changes the request's record, made if absent (an event after its eviction makes it again: the
    /// newest requests are the ones kept), and tells the tabs.
    private func update(
        _ request: MonitoredRequest, at start: Double, _ change: (inout RequestRecord) -> Void
    ) {
        let id = String(request.id)
        let make = { [redactor, layer] in
            RequestRecord(
                id: id, layer: layer, method: request.method.rawValue, url: redactor.url(request.url),
                start: start, account: request.account)
        }
        if let record = store.updateRequest(id, make: make, change) { publish(.request(record)) }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
