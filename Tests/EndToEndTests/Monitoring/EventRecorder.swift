import Foundation
import NetworkLayer
import TestKit
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One monitor event, as a recording monitor saw it.
enum MonitorEvent: @unchecked Sendable {
    case build(URLRequest, MonitoredAttempt)
    case start(MonitoredAttempt)
    case receive(HTTPURLResponse, Data, MonitoredAttempt)
    case retry(MonitoredAttempt, TimeInterval, NetworkError)
    case finish(MonitoredRequest, Result<NetworkResponse<Data>, NetworkError>, RequestMetrics)
    case resend(MonitoredAttempt)
    case memoryOnly(MonitoredRequest, ResponseCache.MemoryOnlyReason)

    /// `build 1`, `start 1`, `receive 1 503`, `retry 1`, `finish 200` or `finish <error>`: enough to
    /// compare an order.
    var summary: String {
        switch self {
        case .build(_, let attempt): "build \(attempt.number)"
        case .start(let attempt): "start \(attempt.number)"
        case .receive(let response, _, let attempt): "receive \(attempt.number) \(response.statusCode)"
        case .retry(let attempt, _, _): "retry \(attempt.number)"
        case .finish(_, .success(let response), _): "finish \(response.statusCode)"
        case .finish(_, .failure(let error), _): "finish \(error)"
        case .resend(let attempt): "resend \(attempt.number)"
        case .memoryOnly(_, let reason): "memory only \(reason.name)"
        }
    }

    /// The request the event belongs to.
    var request: MonitoredRequest {
        switch self {
        case .build(_, let attempt), .start(let attempt), .receive(_, _, let attempt),
            .retry(let attempt, _, _), .resend(let attempt):
            attempt.request
        case .finish(let request, _, _), .memoryOnly(let request, _): request
        }
    }

    var isFinish: Bool {
        if case .finish = self { return true }
        return false
    }
}

/// Where an event ran.
struct EventContext: Sendable {
    var isMainThread: Bool
    var queueMark: String?
    var isOnDelegateQueue: Bool
}

/// A monitor that records every event and where it ran, and fulfils an expectation per finished
/// request.
final class EventRecorder: NetworkMonitor, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [(MonitorEvent, EventContext)] = []
    private var finishedWaiters: [XCTestExpectation] = []
    /// Runs inside each event, after it is recorded: for monitors that are slow on purpose.
    let onEvent: @Sendable (MonitorEvent) -> Void

    init(onEvent: @escaping @Sendable (MonitorEvent) -> Void = { _ in }) {
        self.onEvent = onEvent
    }

    var events: [MonitorEvent] { lock.withLock { recorded.map(\.0) } }
    var contexts: [EventContext] { lock.withLock { recorded.map(\.1) } }
    var summaries: [String] { events.map(\.summary) }

    /// The events of `request` only.
    func events(of request: MonitoredRequest) -> [MonitorEvent] {
        events.filter { $0.request == request }
    }

    /// An expectation fulfilled by the next `count` finish events (counted from now).
    func expectFinishes(_ count: Int = 1, _ test: XCTestCase) -> XCTestExpectation {
        let expectation = test.expectation(description: "\(count) finish events")
        expectation.expectedFulfillmentCount = count
        lock.withLock { finishedWaiters.append(expectation) }
        return expectation
    }

    private func record(_ event: MonitorEvent) {
        let context = EventContext(
            isMainThread: Thread.isMainThread, queueMark: QueueMark.current,
            isOnDelegateQueue: isOnSessionDelegateQueue)
        let waiters: [XCTestExpectation] = lock.withLock {
            recorded.append((event, context))
            return event.isFinish ? finishedWaiters : []
        }
        for waiter in waiters { waiter.fulfill() }
        onEvent(event)
    }

    func didBuild(_ request: URLRequest, for attempt: MonitoredAttempt) {
        record(.build(request, attempt))
    }

    func didStart(_ attempt: MonitoredAttempt) {
        record(.start(attempt))
    }

    func didReceive(_ response: HTTPURLResponse, body: Data, for attempt: MonitoredAttempt) {
        record(.receive(response, body, attempt))
    }

    func willRetry(_ attempt: MonitoredAttempt, after delay: TimeInterval, because error: NetworkError) {
        record(.retry(attempt, delay, error))
    }

    func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        record(.finish(request, result, metrics))
    }

    func didResendBody(for attempt: MonitoredAttempt) {
        record(.resend(attempt))
    }

    func didKeepInMemoryOnly(_ request: MonitoredRequest, because reason: ResponseCache.MemoryOnlyReason) {
        record(.memoryOnly(request, reason))
    }
}

/// Collects a logger's lines.
final class LineCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []

    var lines: [String] { lock.withLock { stored } }
    var text: String { lines.joined(separator: "\n") }

    var sink: @Sendable (String) -> Void {
        { line in self.lock.withLock { self.stored.append(line) } }
    }
}

extension MonitorEvent {
    var built: URLRequest? {
        if case .build(let request, _) = self { return request }
        return nil
    }

    var received: (response: HTTPURLResponse, body: Data)? {
        if case .receive(let response, let body, _) = self { return (response, body) }
        return nil
    }

    var finished: (result: Result<NetworkResponse<Data>, NetworkError>, metrics: RequestMetrics)? {
        if case .finish(_, let result, let metrics) = self { return (result, metrics) }
        return nil
    }

    var retried: (delay: TimeInterval, error: NetworkError)? {
        if case .retry(_, let delay, let error) = self { return (delay, error) }
        return nil
    }

    var attemptNumber: Int? {
        switch self {
        case .build(_, let attempt), .start(let attempt), .receive(_, _, let attempt),
            .retry(let attempt, _, _), .resend(let attempt):
            attempt.number
        case .finish, .memoryOnly: nil
        }
    }
}
