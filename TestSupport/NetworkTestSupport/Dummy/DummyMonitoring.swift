import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Tells a dummy's monitors what the real layer would: each attempt built and started, its stubbed
/// answer as a response, and the outcome with metrics, so an app's analytics hook is testable offline.
struct DummyMonitoring: Sendable {
    private let channel: MonitorGroup.Channel
    private let request: MonitoredRequest
    private let meter = RequestMeter()

    /// `nil` when the dummy has no monitors: then nothing is spent on them.
    init?(_ group: MonitorGroup?, method: HTTPMethod, url: URL?) {
        guard let group else { return nil }
        channel = group.channel()
        request = MonitoredRequest(method: method, url: url)
    }

    var metrics: RequestMetrics { meter.metrics }

    /// An attempt is about to be answered; returns its number.
    func willSend(_ urlRequest: URLRequest) -> Int {
        let number = meter.beginAttempt(sending: urlRequest.httpBody?.count ?? 0)
        let attempt = MonitoredAttempt(of: request, number: number)
        channel.emit {
            $0.didBuild(urlRequest, for: attempt)
            $0.didStart(attempt)
        }
        return number
    }

    /// A stubbed answer arrived: a response when it succeeded, or carried a status.
    func answered<Value>(_ result: Result<NetworkResponse<Value>, NetworkError>, attempt number: Int) {
        let attempt = MonitoredAttempt(of: request, number: number)
        let reply: (status: Int, headers: [String: String], body: Data)?
        switch result {
        case .success(let response): reply = (response.statusCode, response.headers.fields, response.data)
        case .failure(.unacceptableStatusCode(let status, let body, let headers)):
            reply = (status, headers.fields, body)
        case .failure: reply = nil
        }
        meter.endAttempt(
            respondedAt: reply == nil ? nil : DispatchTime.now().uptimeNanoseconds,
            receiving: reply?.body.count ?? 0)
        guard let reply, let url = request.url,
            let response = HTTPURLResponse(
                url: url, statusCode: reply.status, httpVersion: "HTTP/1.1", headerFields: reply.headers)
        else { return }
        channel.emit { $0.didReceive(response, body: reply.body, for: attempt) }
    }

    /// A failed attempt will be answered again after `delay` seconds (the dummy does not wait).
    func willRetry(_ failed: FailedAttempt, after delay: TimeInterval) {
        let attempt = MonitoredAttempt(of: request, number: failed.number)
        channel.emit { $0.willRetry(attempt, after: delay, because: failed.error) }
    }

    /// The request is over: `result` is what its handler receives.
    func finished<Value>(_ result: Result<NetworkResponse<Value>, NetworkError>, metrics: RequestMetrics) {
        let raw = result.map { response in response.map { _ in response.data } }
        let request = request
        channel.finish { $0.didFinish(request, with: raw, metrics: metrics) }
    }
}

extension NetworkResponse {
    /// This response with `metrics`, when there are some.
    func withMetrics(_ metrics: RequestMetrics?) -> NetworkResponse {
        guard let metrics else { return self }
        var copy = self
        copy.metrics = metrics
        return copy
    }
}
