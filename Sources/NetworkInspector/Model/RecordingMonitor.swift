import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The monitor a layer is given: the inspector itself (no label) or ``NetworkInspector/monitor(label:)``'s.
/// Without a recorder (a release build, watchOS) it asks for no attempt events and records nothing.
struct RecordingMonitor: NetworkMonitor {
    let recorder: EventRecorder?
    /// Told when a request carrying an `Idempotency-Key` starts or ends: an outbox item may be sending.
    let outboxes: OutboxWatcher?

    var observesAttempts: Bool { recorder != nil }

    func didCreate(_ request: MonitoredRequest) {
        recorder?.created(request)
    }

    func didBuild(_ request: URLRequest, for attempt: MonitoredAttempt) {
        recorder?.built(request, for: attempt)
        if request.value(forHTTPHeaderField: "Idempotency-Key") != nil { outboxes?.refresh() }
    }

    func didReceive(_ response: HTTPURLResponse, body: Data, for attempt: MonitoredAttempt) {
        recorder?.received(response, body: body, for: attempt)
    }

    func willRetry(_ attempt: MonitoredAttempt, after delay: TimeInterval, because error: NetworkError) {
        recorder?.willRetry(attempt, after: delay, because: error)
    }

    func didSendBodyData(_ progress: TransferProgress, for request: MonitoredRequest) {
        recorder?.transferred(progress, for: request, isUpload: true)
    }

    func didWriteData(_ progress: TransferProgress, for request: MonitoredRequest) {
        recorder?.transferred(progress, for: request, isUpload: false)
    }

    func didConfirmUploadOffset(_ offset: Int64, of length: Int64, at uploadURL: URL) {
        recorder?.confirmedUploadOffset(offset, of: length, at: uploadURL)
    }

    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        recorder?.finished(request, with: result, metrics: metrics)
        if request.method != .get { outboxes?.refresh() }
    }

    func didKeepInMemoryOnly(_ request: MonitoredRequest, because reason: ResponseCache.MemoryOnlyReason) {
        recorder?.keptInMemoryOnly(request, because: reason)
    }
}
