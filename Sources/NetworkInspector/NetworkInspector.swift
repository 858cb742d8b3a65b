import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A live page of the app's traffic, served to a browser on the same machine: every request with its
/// status, timing, cache status, sharing, retries and queue time, a waterfall, and each request's details.
///
/// ```swift
/// #if DEBUG
///     let inspector = NetworkInspector()
///     let network = NetworkLayer(baseURL: api, monitors: [inspector])
///     let pageURL = try inspector.start()
///     // Open pageURL in a browser on this Mac (a simulator shares its loopback).
/// #endif
/// ```
///
/// The inspector is a `NetworkMonitor`: give it to each layer it watches (several layers may share one;
/// ``monitor(label:)`` names a layer's rows). It keeps the last ``Configuration/maximumRequests`` requests,
/// each body cut at ``Configuration/maximumBodyBytes``, with headers and bodies redacted as
/// `NetworkLogger` redacts them unless ``Configuration/redactsSecrets`` is off.
///
/// The page is served on the loopback interface only, to a request carrying the random token in ``url``
/// and a loopback `Host`; it sends no CORS headers. In a build without `DEBUG`, and on watchOS, the
/// inspector is inert: it records nothing, opens no socket, and ``start()`` throws
/// ``StartError/unavailable``. See <doc:InspectingTraffic>.
public final class NetworkInspector: NetworkMonitor {
    /// What the inspector keeps and shows.
    public struct Configuration: Sendable, Equatable {
        /// The most requests kept: older ones are dropped (and counted). At least 1.
        public var maximumRequests: Int
        /// The most bytes kept of each request and reply body; the page says when one was cut.
        public var maximumBodyBytes: Int
        /// Whether credential headers, credential query items and credential-named body members are shown
        /// as `<redacted>`, as `NetworkLogger` writes them; `true` unless turned off for local debugging.
        public var redactsSecrets: Bool

        /// A configuration.
        ///
        /// - Parameters:
        ///   - maximumRequests: The most requests kept; 500 by default.
        ///   - maximumBodyBytes: The most bytes kept of each body; 64 KiB by default.
        ///   - redactsSecrets: Whether secrets are redacted; turn it off only for local debugging.
        public init(
            maximumRequests: Int = 500, maximumBodyBytes: Int = 64 * 1_024, redactsSecrets: Bool = true
        ) {
            self.maximumRequests = maximumRequests
            self.maximumBodyBytes = maximumBodyBytes
            self.redactsSecrets = redactsSecrets
        }
    }

    /// Why ``NetworkInspector/start()`` served nothing.
    public enum StartError: Error, Sendable, Equatable {
        /// A build without `DEBUG`, or watchOS: the inspector never opens a socket.
        case unavailable
        /// The loopback port could not be opened; the system's reason.
        case cannotListen(String)
    }

    /// What the inspector keeps and shows.
    public let configuration: Configuration
    let store: InspectorStore
    /// The inspector's own events (no label); `nil` recorder when inert.
    private let recording: RecordingMonitor
    let outboxes: OutboxWatcher?
    let fanOut: EventFanOut
    /// Whether the inspector records and serves: only in a `DEBUG` build, never on watchOS.
    let isServing: Bool
    /// The server while started; its lock owns starting and stopping.
    let server = Locked<InspectorServer?>(nil)

    /// An inspector; it records from now on and serves once started.
    ///
    /// - Parameter configuration: How many requests and body bytes it keeps, and whether it redacts.
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(configuration: configuration, serving: Self.servesInThisBuild)
    }

    /// `serving: false` is what a release build makes: the tests check that it opens no socket.
    init(configuration: Configuration, serving: Bool) {
        self.configuration = configuration
        isServing = serving
        store = InspectorStore(
            maximumRequests: configuration.maximumRequests, maximumBodyBytes: configuration.maximumBodyBytes)
        let fanOut = EventFanOut()
        self.fanOut = fanOut
        let publish: @Sendable (InspectorEvent) -> Void = { fanOut.publish($0) }
        outboxes = serving ? OutboxWatcher(store: store, publish: publish) : nil
        recording = RecordingMonitor(
            recorder: serving
                ? EventRecorder(
                    store: store, redactor: Redactor(redacts: configuration.redactsSecrets), layer: "",
                    publish: publish) : nil,
            outboxes: outboxes)
    }

    #if DEBUG && !os(watchOS)
        static let servesInThisBuild = true
    #else
        static let servesInThisBuild = false
    #endif

    /// A monitor for one layer that records into this inspector, its requests labelled `label` on the page:
    /// for an app with several layers (an API's, a CDN's).
    ///
    /// - Parameter label: The name the page shows in each of the layer's rows.
    /// - Returns: The monitor to give the layer, in place of the inspector itself.
    public func monitor(label: String) -> any NetworkMonitor {
        guard let recorder = recording.recorder else { return recording }
        return RecordingMonitor(
            recorder: EventRecorder(
                store: recorder.store, redactor: recorder.redactor, layer: label, publish: recorder.publish),
            outboxes: outboxes)
    }

    /// Shows `outbox`'s queue (waiting, sending, dead letters) on the page, until the outbox closes.
    ///
    /// - Parameter outbox: An outbox whose layer has this inspector among its monitors.
    public func attach(_ outbox: Outbox) {
        outboxes?.attach(outbox)
    }

    /// Forgets every request, stream and transfer, and tells the open pages.
    public func clear() {
        store.clear()
        fanOut.publish(.clear)
    }

    deinit {
        stop()
    }

    // MARK: - NetworkMonitor

    /// `true` in a `DEBUG` build (the page shows each attempt); `false` when inert.
    public var observesAttempts: Bool { recording.observesAttempts }

    /// Records the request as it begins, before it waits for anything.
    ///
    /// - Parameter request: The request that begins.
    public func didCreate(_ request: MonitoredRequest) {
        recording.didCreate(request)
    }

    /// Records the attempt: its headers, body and curl command, redacted.
    ///
    /// - Parameters:
    ///   - request: The request as it goes on the wire.
    ///   - attempt: The request it belongs to, and the attempt's number.
    public func didBuild(_ request: URLRequest, for attempt: MonitoredAttempt) {
        recording.didBuild(request, for: attempt)
    }

    /// Records the attempt's reply: status, headers and body, redacted.
    ///
    /// - Parameters:
    ///   - response: The reply's status, headers and URL.
    ///   - body: The reply's body.
    ///   - attempt: The request it belongs to, and the attempt's number.
    public func didReceive(_ response: HTTPURLResponse, body: Data, for attempt: MonitoredAttempt) {
        recording.didReceive(response, body: body, for: attempt)
    }

    /// Records the failed attempt and the wait before the next.
    ///
    /// - Parameters:
    ///   - attempt: The attempt that failed.
    ///   - delay: Seconds until the next attempt.
    ///   - error: Why the attempt failed.
    public func willRetry(_ attempt: MonitoredAttempt, after delay: TimeInterval, because error: NetworkError)
    {
        recording.willRetry(attempt, after: delay, because: error)
    }

    /// Records an upload's progress in its transfer row (a resumable upload's append, in the upload's).
    ///
    /// - Parameters:
    ///   - progress: The bytes sent so far, and the body's length.
    ///   - request: The upload.
    public func didSendBodyData(_ progress: TransferProgress, for request: MonitoredRequest) {
        recording.didSendBodyData(progress, for: request)
    }

    /// Records a download's progress in its transfer row.
    ///
    /// - Parameters:
    ///   - progress: The bytes in the file so far, and the total when known.
    ///   - request: The download.
    public func didWriteData(_ progress: TransferProgress, for request: MonitoredRequest) {
        recording.didWriteData(progress, for: request)
    }

    /// Records the offset a resumable upload's server confirmed, in the upload's transfer row.
    ///
    /// - Parameters:
    ///   - offset: The bytes the server holds.
    ///   - length: The file's length.
    ///   - uploadURL: The upload's URL.
    public func didConfirmUploadOffset(_ offset: Int64, of length: Int64, at uploadURL: URL) {
        recording.didConfirmUploadOffset(offset, of: length, at: uploadURL)
    }

    /// Records the outcome, times, cost and phases of the request.
    ///
    /// - Parameters:
    ///   - request: The request that finished.
    ///   - result: The response or the error.
    ///   - metrics: What the request cost.
    public func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        recording.didFinish(request, with: result, metrics: metrics)
    }

    /// Records why the cache kept the reply in memory only.
    ///
    /// - Parameters:
    ///   - request: The request whose reply stayed off the disk.
    ///   - reason: Why.
    public func didKeepInMemoryOnly(
        _ request: MonitoredRequest, because reason: ResponseCache.MemoryOnlyReason
    ) {
        recording.didKeepInMemoryOnly(request, because: reason)
    }
}
