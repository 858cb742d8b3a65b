import Foundation

/// A layer's monitors and the serial queue their events run on, in order, away from the main queue, the
/// session's delegate queue and the handlers' queue.
package final class MonitorGroup: Sendable {
    private let monitors: [any NetworkMonitor]
    private let queue = DispatchQueue(label: "NetworkLayer.monitors", qos: .utility)

    /// `nil` without monitors: then nothing is measured, allocated or dispatched for them.
    package init?(_ monitors: [any NetworkMonitor]) {
        guard !monitors.isEmpty else { return nil }
        self.monitors = monitors
    }

    /// Runs `event` for every monitor, in order, on the monitors' queue, unless `request` has already
    /// finished: a cancelled attempt may still report a response after its request's `didFinish`, and
    /// monitors are promised that `didFinish` comes last. `finishing` marks the event that does.
    package func emit(
        for request: MonitorGate, finishing: Bool = false,
        _ event: @escaping @Sendable (any NetworkMonitor) -> Void
    ) {
        queue.async { [monitors] in
            guard !request.isFinished else { return }
            if finishing { request.isFinished = true }
            for monitor in monitors { event(monitor) }
        }
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var lastID: UInt64 = 0

    /// A request identity for the events, unique within the process.
    package static func nextID() -> UInt64 {
        lock.withLock {
            lastID += 1
            return lastID
        }
    }
}

extension MonitoredRequest {
    /// The request an event belongs to; test doubles make them too.
    package init(method: HTTPMethod, url: URL?) {
        self.init(id: MonitorGroup.nextID(), method: method, url: url)
    }
}

extension MonitoredAttempt {
    /// Attempt `number` of `request`.
    package init(of request: MonitoredRequest, number: Int) {
        self.init(request: request, number: number)
    }
}

/// Whether a request's `didFinish` has been sent to the monitors.
package final class MonitorGate: @unchecked Sendable {
    /// Read and written only on the monitors' serial queue.
    fileprivate var isFinished = false

    package init() {}
}
