import Foundation
import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A `NetworkMonitor` that records the exchanges a real `NetworkLayer` makes as a HAR 1.2 archive, to
/// replay them later in tests with ``StubTransport/replay(_:matchingBody:)`` or
/// ``MockServer/replay(_:matchingBody:)``.
///
/// ```swift
/// let recorder = HARRecorder(redactedHeaders: ["X-Session"], redactedQueryItems: ["api_key"])
/// let network = NetworkLayer(baseURL: devServer, monitors: [recorder])
/// // … use the app against the dev server …
/// recorder.waitForEntries(3)
/// try recorder.write(to: URL(fileURLWithPath: "Tests/AppTests/Fixtures/todos.har"))
/// ```
///
/// Secrets are removed before anything is stored, by `NetworkLogger`'s rules, configured the same way:
/// the values of `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-Api-Key`,
/// `X-Auth-Token`, those the layer's `RedirectPolicy.credentialHeaders` names and the headers you name
/// become `<redacted>`, as do URL user-info and the values of
/// the query items that carry credentials by convention (`NetworkLogger/alwaysRedactedQueryItems`) and
/// those you name, in URLs and in `Location`, `Content-Location` and `Referer`; fragments are dropped;
/// no `cookies` are written. In JSON bodies, requests' and replies', the values of members with those
/// names become `"<redacted>"` (unless `redactsBodies` is `false`); other bodies are written as they
/// were (binary ones in base64): review the file before you commit it.
///
/// Each attempt that got a response is one entry (a retried request gives several), added when its
/// request finishes. Monitors hear of a request after its handler may have run, so wait with
/// `waitForEntries(_:timeout:)` (blocking or `async`) before reading ``archive``.
public final class HARRecorder: NetworkMonitor, Sendable {
    /// Who the written files say wrote them.
    public let creator: HARArchive.Creator
    private let redactor: HARRedactor
    private let state = Locked(State())

    private struct State {
        var entries: [HARArchive.Entry] = []
        /// The attempts of the requests in flight, by request ID and attempt number.
        var attempts: [UInt64: [Int: HARAttempt]] = [:]
        var waiters: [Int: EntryWaiter] = [:]
        var lastWaiter = 0

        mutating func addWaiter(for count: Int, resume: @escaping @Sendable (Bool) -> Void) -> Int? {
            guard entries.count < count else { return nil }
            lastWaiter += 1
            waiters[lastWaiter] = EntryWaiter(count: count, resume: resume)
            return lastWaiter
        }

        mutating func takeWaiters(satisfiedBy count: Int) -> [EntryWaiter] {
            let ready = waiters.filter { $0.value.count <= count }
            for id in ready.keys { waiters[id] = nil }
            return Array(ready.values)
        }
    }

    /// A recorder.
    ///
    /// - Parameters:
    ///   - redactedHeaders: More header names (any case) whose values never reach the archive, besides
    ///     `NetworkLogger/alwaysRedactedHeaders`.
    ///   - redactedQueryItems: More query item names (any case) whose values never reach the archive,
    ///     besides `NetworkLogger/alwaysRedactedQueryItems`.
    ///   - redactsBodies: Whether JSON members with credential names are redacted in bodies; turn it off
    ///     only for local debugging.
    ///   - creator: Who the written files say wrote them.
    public init(
        redactedHeaders: Set<String> = [], redactedQueryItems: Set<String> = [], redactsBodies: Bool = true,
        creator: HARArchive.Creator = .networkTestSupport
    ) {
        redactor = HARRedactor(
            redactedHeaders: redactedHeaders, redactedQueryItems: redactedQueryItems,
            redactsBodies: redactsBodies)
        self.creator = creator
    }

    /// Header names (lowercased) whose values are redacted, `NetworkLogger/alwaysRedactedHeaders`
    /// included.
    public var redactedHeaders: Set<String> { redactor.rules.redactedHeaders }

    /// Query item names (lowercased) whose values are redacted, `NetworkLogger/alwaysRedactedQueryItems`
    /// included.
    public var redactedQueryItems: Set<String> { redactor.rules.redactedQueryItems }

    /// The entries recorded so far, redacted, in the order their requests finished.
    public var archive: HARArchive {
        state.withLock { HARArchive(creator: creator, entries: $0.entries) }
    }

    /// Writes ``archive`` to `url` as a HAR file, replacing any file there.
    ///
    /// - Parameter url: Where to write the file; an existing file is replaced.
    public func write(to url: URL) throws {
        try archive.write(to: url)
    }

    /// Forgets the entries recorded so far; requests in flight are still recorded when they finish.
    public func reset() {
        state.withLock { $0.entries.removeAll() }
    }

    // MARK: - Events

    /// Keeps the attempt's request, redacted.
    ///
    /// - Parameters:
    ///   - request: The request, as in `NetworkMonitor`.
    ///   - attempt: The attempt, as in `NetworkMonitor`.
    public func didBuild(_ request: URLRequest, for attempt: MonitoredAttempt) {
        let recorded = redactor.request(request, credentialHeaders: attempt.request.credentialHeaders)
        state.withLock {
            $0.attempts[attempt.request.id, default: [:]][attempt.number] = HARAttempt(request: recorded)
        }
    }

    /// Notes when the attempt started.
    ///
    /// - Parameter attempt: The attempt, as in `NetworkMonitor`.
    public func didStart(_ attempt: MonitoredAttempt) {
        let now = (Date(), DispatchTime.now().uptimeNanoseconds)
        state.withLock { state in
            state.attempts[attempt.request.id]?[attempt.number]?.startDate = now.0
            state.attempts[attempt.request.id]?[attempt.number]?.startUptime = now.1
        }
    }

    /// Keeps the response, redacted.
    ///
    /// - Parameters:
    ///   - response: The response, as in `NetworkMonitor`.
    ///   - body: The body, as in `NetworkMonitor`.
    ///   - attempt: The attempt, as in `NetworkMonitor`.
    public func didReceive(_ response: HTTPURLResponse, body: Data, for attempt: MonitoredAttempt) {
        let now = DispatchTime.now().uptimeNanoseconds
        let recorded = redactor.response(
            response, body: body, credentialHeaders: attempt.request.credentialHeaders)
        state.withLock { state in
            state.attempts[attempt.request.id]?[attempt.number]?.response = recorded
            state.attempts[attempt.request.id]?[attempt.number]?.responseUptime = now
        }
    }

    /// Adds an entry for each of the request's attempts that got a response, timed by `metrics`.
    ///
    /// - Parameters:
    ///   - request: The request, as in `NetworkMonitor`.
    ///   - result: The outcome, as in `NetworkMonitor`.
    ///   - metrics: The metrics, as in `NetworkMonitor`.
    public func didFinish(
        _ request: MonitoredRequest, with result: Result<NetworkResponse<Data>, NetworkError>,
        metrics: RequestMetrics
    ) {
        let ready: [EntryWaiter] = state.withLock { state in
            guard let finished = state.attempts.removeValue(forKey: request.id) else { return [] }
            state.entries += HARAttempt.entries(of: finished, metrics: metrics)
            return state.takeWaiters(satisfiedBy: state.entries.count)
        }
        for waiter in ready { waiter.resume(true) }
    }

    // MARK: - Waiting

    /// Adds a waiter for `count` entries; `nil` when there are that many already. The count is checked
    /// and the waiter added in one step, so an entry that arrives in between can't be missed.
    func addWaiter(for count: Int, resume: @escaping @Sendable (Bool) -> Void) -> Int? {
        state.withLock { $0.addWaiter(for: count, resume: resume) }
    }

    /// Removes a waiter that has not been resumed; `nil` when it has been.
    func removeWaiter(_ id: Int) -> EntryWaiter? {
        state.withLock { $0.waiters.removeValue(forKey: id) }
    }
}

/// Someone waiting for the recorder to hold `count` entries.
struct EntryWaiter: Sendable {
    let count: Int
    let resume: @Sendable (Bool) -> Void
}
