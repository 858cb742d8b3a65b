import Foundation

/// A call made of several requests through the layer (a resumable upload's creation, `HEAD`s, `PATCH`es):
/// one task to its caller, whose every step is a request of its own through `send`, so interceptors,
/// monitors, metrics and the scheduler see each.
///
/// It stands on ``RequestTask``'s latch: it ends once, by the feature's decision (``succeed(_:)``,
/// ``fail(_:)``), a cancel or its total time limit (the caller's, as for any request:
/// ``NetworkLayer/totalTimeLimit(for:isStream:)``), whichever comes first; that cancels the step in flight
/// or the wait (``wait(_:then:)``), and no step begins after it. Exactly one of the caller's handlers runs,
/// once, on the callback queue (where the call is settled, for one that delivers immediately).
///
/// Each step is built by ``request(_:_:headers:as:)`` from the caller's request under the call's
/// ``OriginRule``, whatever origin its URL names. One step or wait runs at a time, each begun from the
/// handler of the one before: it is the task's attempt in flight. A step's handlers run only while the
/// call runs.
final class ComposedCall: NetworkTask, Sendable {
    let layer: NetworkLayer
    private let task: RequestTask
    private let caller: Caller
    private let rule: OriginRule

    /// What each step inherits from the caller's request.
    private struct Caller: Sendable {
        let headers: [String: String]
        let timeout: TimeInterval?
        let interceptors: [any RequestInterceptor]
        let monitors: [any NetworkMonitor]
        let redirectPolicy: RedirectPolicy?
        let scheduling: RequestScheduling?
        let account: String?
        let deliversImmediately: Bool
    }

    /// A call for `request`, whose outcome goes to `errorHandler` or to what ``succeed(_:)`` is given.
    ///
    /// - Parameters:
    ///   - request: The caller's request: its settings go with every step, its URL's origin is the one
    ///     its credentials go to, its `resourceTimeout` limits the whole call.
    ///   - layer: Where every step is sent.
    ///   - errorHandler: The caller's error handler.
    init<Value>(
        _ request: NetworkRequest<Value>, on layer: NetworkLayer,
        errorHandler: @escaping (NetworkError) -> Void
    ) {
        self.layer = layer
        caller = Caller(
            headers: request.headers, timeout: request.timeout, interceptors: request.interceptors,
            monitors: request.monitors, redirectPolicy: request.redirectPolicy,
            scheduling: request.scheduling,
            account: request.account, deliversImmediately: request.deliversImmediately)
        let source = try? layer.builder.url(for: request)
        rule = OriginRule(
            source: source, credentials: layer.credentialHeaders(for: request),
            redirectPolicy: layer.redirectPolicy(for: request), authenticators: layer.authenticators)
        // Before any step: a step to a URL a server named must not become the origin of credentials that
        // have none yet.
        if let source { layer.adoptCredentialOrigin(of: source) }
        task = RequestTask(
            delivery: layer.deliversImmediately(request, isStream: false)
                ? .immediate : CallbackDelivery(queue: layer.callbackQueue),
            failureHandler: errorHandler, priority: request.priority, clock: layer.clock)
        task.limitTotalTime(
            to: layer.totalTimeLimit(for: request, isStream: false), on: layer.clock)
    }

    var priority: RequestPriority {
        get { task.priority }
        set { task.priority = newValue }
    }

    func cancel() {
        task.cancel()
    }

    /// Cancels the call.
    ///
    /// - Returns: Whether this cancel ended it (see ``RequestTask/endByCancelling()``).
    @discardableResult
    func endByCancelling() -> Bool {
        task.endByCancelling()
    }

    /// Ends the call with a success: `deliver` runs the caller's success handler.
    func succeed(_ deliver: @escaping () -> Void) {
        task.succeed(deliver)
    }

    /// Ends the call with `error`.
    func fail(_ error: NetworkError) {
        task.fail(error)
    }

    /// A step: `method` to `urlString` (resolved as the caller's URL is) with the `headers` the step
    /// itself sets, which always go. The caller's headers, its interceptors and what the layer's add go as
    /// the ``OriginRule`` says; its monitors, redirect policy, priority, scheduling, account and timeout
    /// always. Its retry and cache policies don't: the feature sets the step's own.
    ///
    /// - Returns: The request, or why nothing may be sent to that URL.
    func request<T: Decodable & SendableMetatype>(
        _ method: HTTPMethod, _ urlString: String, headers: [String: String], as type: T.Type
    )
        -> Result<NetworkRequest<T>, NetworkError>
    {
        var step = NetworkRequest<T>(
            method: method, urlString: urlString, headers: [:], timeout: caller.timeout)
        // `nil`: a URL the builder can't resolve, which the layer refuses.
        let hop = (try? layer.builder.url(for: step)).map(rule.hop)
        switch hop {
        case .refused(let error)?: return .failure(error)
        case .sameOrigin?: step.interceptors = caller.interceptors
        case .otherOrigin(let url)?:
            step.urlString = url.absoluteString
            // A request's interceptors run after the layer's: this one sees what they all added.
            step.interceptors = [rule.credentialFilter]
        case nil: break
        }
        step.headers = caller.headers.merging(headers) { $1 }
        step.monitors = caller.monitors
        step.redirectPolicy = caller.redirectPolicy
        step.priority = task.priority
        step.scheduling = caller.scheduling
        step.account = caller.account
        step.deliversImmediately = caller.deliversImmediately
        return .success(step)
    }

    /// Sends `step` (from ``request(_:_:headers:as:)``, or the caller's own request) as the call's child in
    /// flight. None begins after the call ended, and one begun as it ends is cancelled at once; a step
    /// nothing may be sent for ends the call with why.
    ///
    /// - Parameters:
    ///   - step: The request, or why there is none.
    ///   - successHandler: Runs with the step's reply, while the call runs.
    ///   - errorHandler: Runs with the step's failure, while the call runs.
    func send<T>(
        _ step: Result<NetworkRequest<T>, NetworkError>,
        successHandler: @escaping (NetworkResponse<T>) -> Void, errorHandler: @escaping (NetworkError) -> Void
    ) {
        if case .failure(let error) = step { return fail(error) }
        // Held by the task, not by the closures below: the transport may hold a finished step's closures a
        // moment after it reported, and must not keep the feature (and what it holds, a store's journal)
        // alive so.
        let handlers = StepHandlers(success: successHandler, failure: errorHandler)
        guard case .success(let request) = step, let number = task.beginAttempt(reportingTo: handlers)?.child
        else { return }
        let task = task
        // Given back by the task to the first to ask, and used only while the call runs.
        let taken = { task.transportFinished().flatMap { task.isSettled ? nil : $0 as? StepHandlers<T> } }
        let child = layer.send(
            request, successHandler: { taken()?.success($0) }, errorHandler: { taken()?.failure($0) })
        task.attach(cancellingWith: { child.cancel() }, toAttempt: number)
    }

    private struct StepHandlers<T> {
        let success: (NetworkResponse<T>) -> Void
        let failure: (NetworkError) -> Void
    }

    /// Sends `step` after the call ended (a cancelled upload's `DELETE`), outside the latch: nothing
    /// waits for it, and its outcome is dropped.
    func sendAfterEnd<T>(_ step: Result<NetworkRequest<T>, NetworkError>) {
        guard case .success(let request) = step else { return }
        layer.send(request, successHandler: { _ in }, errorHandler: { _ in })
    }

    /// Runs `next` on the work queue once `seconds` have passed on the layer's clock, unless the call ends
    /// first: its end cancels the wait (see ``RequestTask/wait(_:on:queue:then:)``).
    func wait(_ seconds: TimeInterval, then next: @escaping @Sendable () -> Void) {
        let task = task
        task.wait(seconds, on: layer.clock, queue: Queues.work) {
            if !task.isSettled { next() }
        }
    }
}
