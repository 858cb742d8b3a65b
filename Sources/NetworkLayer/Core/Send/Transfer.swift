import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request on the session: its task, idle deadline, stops (cancel, timeout, size limit) and exactly
/// one completion; ``TransferLifecycle`` decides what happens when, the sink takes the reply.
/// Runs on the session's serial delegate queue, which owns all its state (only the body source is rewound on
/// libcurl's thread, which counts the rewind back on the delegate queue). Why: stopping there orders a stop against the
/// task's completion and redirects, out of reach of FoundationNetworking's traps; see <doc:LinuxNotes>.
final class Transfer: TransferFlow, @unchecked Sendable {
    typealias Completion = @Sendable (TransferResult) -> Void

    /// The requesting layer's rules for following redirects; layers sharing a session may differ.
    let redirectPolicy: RedirectPolicy
    private let request: URLRequest
    private let sink: any TransferSink
    private let source: (any TransferBody)?
    private var idleTimeout: TimeInterval { request.timeoutInterval }
    private let transport: SessionTransport
    /// The sending layer's clock, which keeps the idle deadline.
    private let clock: any NetworkClock
    /// The cookie the request was keyed by, which it carries; `nil`: the storage's when a task is made.
    private let cookie: PinnedCookie?

    /// Read by the delegate: a stopped transfer's redirect or challenge is left unanswered.
    private(set) var lifecycle = TransferLifecycle()
    private var task: URLSessionTask?
    /// Armed while the task runs, for its idle deadline (or an earlier one); checked on the delegate queue.
    private var idleTimer: (any ClockTimer)?
    /// `URLSessionTask.priority`, set where the platform honours it (``PlatformFacts/honoursTaskPriority``).
    var priority: Float = URLSessionTask.defaultPriority
    /// Given up once delivered, with everything it holds.
    private var completion: Completion?
    private var response: URLResponse?
    private var respondedAt: UInt64?
    private var lastActivity: UInt64
    /// How many times libcurl asked for the body again: asked on libcurl's thread, counted on the delegate
    /// queue before the task's completion arrives there.
    private var bodyResends = 0

    /// `body`: an upload's body; `nil` sends the request's own `httpBody`, if any. The request's
    /// `timeoutInterval` is the idle timeout.
    init(
        _ request: URLRequest, sink: any TransferSink, body: (any TransferBody)?,
        redirectPolicy: RedirectPolicy, transport: SessionTransport, clock: any NetworkClock,
        cookie: PinnedCookie? = nil, completion: @escaping Completion
    ) {
        self.request = request
        self.sink = sink
        source = body
        self.redirectPolicy = redirectPolicy
        self.transport = transport
        self.clock = clock
        self.cookie = cookie
        self.completion = completion
        lastActivity = clock.now.uptimeNanoseconds
        sink.attach(self)
    }

    /// Starts the transfer, from the caller's thread, the policy queue or (a retry) the delegate queue.
    func start() {
        let ready = sink.awaitTurn {
            // A stop while it waited for its turn found no task: deliver it here instead of sending.
            self.transport.delegateQueue.enqueue {
                guard self.lifecycle.canBegin else { return self.finish(with: nil, response: nil) }
                self.prepareAndBegin()
            }
        }
        if ready { prepareAndBegin() }
    }

    private func prepareAndBegin() {
        switch sink.prepare(request) {
        case .success(let prepared):
            guard let source, transport.sendsUploadsNatively else { return begin(prepared) }
            // Why off-queue: the native form may write a temporary file. A stop meanwhile is delivered here.
            Queues.disk.async {
                let failure = source.prepareNative()
                self.transport.delegateQueue.enqueue {
                    if let failure {
                        self.lifecycle.failedToPrepare(failure)
                    } else if self.lifecycle.canBegin {
                        return self.begin(prepared)
                    }
                    self.finish(with: nil, response: nil)
                }
            }
        case .failure(let error):
            lifecycle.failedToPrepare(error)
            transport.delegateQueue.enqueue { self.finish(with: nil, response: nil) }
        }
    }

    /// Creates the task, registers it and its deadline, and resumes it, in that order: once it runs, its
    /// events may arrive on the delegate queue at once.
    private func begin(_ request: URLRequest) {
        var request = SessionTransport.withBackstopTimeout(request, bodyIdleTimeout: sink.bodyIdleTimeout)
        if let cookies = transport.cookies { request = cookies.attaching(cookie, to: request) }
        let facts = transport.facts
        let file = source?.attach(to: &request, facts: facts)
        transport.delegateQueue.withoutWaiting {
            let task =
                file.map { transport.session.uploadTask(with: request, fromFile: $0) }
                ?? transport.session.dataTask(with: request)
            self.task = task
            if facts.honoursTaskPriority { task.priority = priority }
            lifecycle.began()
            touch()
            transport.delegate.add(self, for: task)
            armIdleTimer(at: clock.now + idleTimeout)
            task.resume()
        }
    }

    /// When the transfer times out unless data moves first; `nil` once it is stopped or over.
    var deadline: DispatchTime? {
        guard lifecycle.keepsDeadline else { return nil }
        let timeout = response == nil ? idleTimeout : sink.bodyIdleTimeout ?? idleTimeout
        // A consumer that is behind isn't the server being idle.
        if lifecycle.isPaused { return clock.now + timeout }
        return DispatchTime(uptimeNanoseconds: lastActivity) + timeout
    }

    /// Arms the idle timer for `time`, replacing a later time. Data that moves doesn't touch it: when it
    /// fires, the real deadline is read and the timer armed again for it unless it passed.
    private func armIdleTimer(at time: DispatchTime) {
        if idleTimer == nil {
            // Held by the clock while armed, as the transfer it stops; `finish` disarms it.
            idleTimer = clock.makeTimer(on: nil) {
                self.transport.delegateQueue.enqueue { self.idleTimerFired() }
            }
        }
        idleTimer?.schedule(at: time)
    }

    private func idleTimerFired() {
        guard idleTimer != nil, let deadline else { return }
        if deadline <= clock.now {
            stop(because: URLError(.timedOut))
        } else {
            idleTimer?.schedule(at: deadline)
        }
    }

    // MARK: - Events from the session delegate (delegate queue)

    /// A response head arrived; `false` cancels the task.
    func receive(_ response: URLResponse) -> Bool {
        guard lifecycle.takesResponse else { return false }
        touch()
        keepCookies(of: response)
        respondedAt = lastActivity
        self.response = response
        switch sink.open(response) {
        case .accept:
            if let bodyTimeout = sink.bodyIdleTimeout, bodyTimeout < idleTimeout {
                // The clock is armed for the request's timeout: bring it forward.
                armIdleTimer(at: clock.now + bodyTimeout)
            }
            if lifecycle.accepted(needsBackPressure: sink.needsBackPressure) {
                transport.delegateQueue.holdBackPressure()
            }
            return true
        case .refuse(let error):
            // Refusing the response alone doesn't end the task on Linux: it must be cancelled too.
            stop(because: error)
            return false
        case .restart:
            // As with a refusal, the task must be cancelled on Linux or the refused body is read to its end
            // (timing the restart out); `finish` then starts over. Off-queue, as a stop while libcurl may be
            // held back.
            if lifecycle.restart() { transport.delegateQueue.releaseBackPressure() }
            if let task { Self.cancelOffQueue(task) }
            return false
        }
    }

    /// Body bytes arrived. Once stopped, what FoundationNetworking still hands over is dropped.
    func receive(_ data: Data) {
        guard lifecycle.takesBody else { return }
        touch()
        if let error = sink.write(data) { stop(because: error) }
    }

    /// Body bytes went out: a slow upload that is making progress is not idle.
    func sent(bodyBytes: Int64) {
        touch()
        source?.sent(bodyBytes)
    }

    /// libcurl sends the attempt again and rewinds its body (a kept-alive connection turned out closed): a
    /// fresh stream, on libcurl's thread, which waits for it. Counted for the metrics and the monitors: the
    /// server may have received the request twice. A body sent as `httpBody` can't be given again
    /// (FoundationNetworking stops the process when a stream replaces bytes, and without one it sends the
    /// `Content-Length` without the body, then waits for the timeout): that attempt ends now, as a lost
    /// connection. See <doc:LinuxNotes>.
    func newBodyStream() -> InputStream? {
        // Enqueued before libcurl goes on, so before the task's completion, on the same serial queue.
        transport.delegateQueue.enqueue { self.bodyResends += 1 }
        guard let source else {
            stopFromAnyThread(because: Self.bodyNotResendable)
            return nil
        }
        return source.newStream()
    }

    private static let bodyNotResendable = URLError(
        .networkConnectionLost,
        userInfo: [
            NSLocalizedDescriptionKey:
                "The connection closed as the request went out, and its body can't be sent again on a new one."
        ])

    func keepCookies(of response: URLResponse?) {
        transport.cookies?.store(from: response, pinned: cookie != nil)
    }

    /// The server's redirect is being followed: what arrived so far belonged to the 3xx.
    func redirected(by redirect: HTTPURLResponse) {
        touch()
        keepCookies(of: redirect)
        response = nil
        sink.discard()
    }

    /// The server asked for credentials the layer doesn't have: FoundationNetworking would wait forever.
    /// Declining ends the task as cancelled, which ``finish(with:response:)`` turns into the 401 or 407.
    func declineChallenge() {
        lifecycle.declineChallenge()
    }

    /// The task is over: start over if the sink asked to, else deliver, exactly once.
    func finish(with error: (any Error)?, response taskResponse: URLResponse?) {
        let end = lifecycle.ended()
        if end == .ignore { return }
        idleTimer?.cancel()
        idleTimer = nil
        task = nil
        guard case .deliver(let delivery) = end else {
            if let request = sink.restartRequest() {
                response = nil
                return begin(request)
            }
            return deliver(lifecycle.restartFailed(), error: error, response: taskResponse)
        }
        deliver(delivery, error: error, response: taskResponse)
    }

    private func deliver(
        _ delivery: TransferLifecycle.Delivery, error: (any Error)?, response taskResponse: URLResponse?
    ) {
        guard let completion = completion.take() else { return assertionFailure("delivered twice") }
        release(resumesReading: delivery.resumesReading, backPressure: delivery.releasesBackPressure)
        let stopReason = delivery.stopReason
        let declined = delivery.declinedChallenge && (error as? URLError)?.code == .cancelled
        // A reply that never came through `receive` (a 3xx FoundationNetworking couldn't follow, a
        // declined challenge's 401) still sets its cookies.
        if self.response == nil { keepCookies(of: taskResponse) }
        let response = response ?? taskResponse
        var failure = stopReason ?? (declined ? nil : error.map(Self.connectionLost))
        if stopReason == nil, let source { failure = source.check(failure, response: response) }
        source?.discardNative()
        if stopReason != nil { sink.discard() }
        let resends = bodyResends
        guard resends > 0 else {
            return sink.close(
                failure: failure, response: response, respondedAt: respondedAt, then: completion)
        }
        sink.close(failure: failure, response: response, respondedAt: respondedAt) { result in
            var result = result
            result.bodyResends = resends
            completion(result)
        }
    }

    /// Gives back what held libcurl's thread: a paused read, this transfer's back-pressure hold.
    private func release(resumesReading: Bool, backPressure: Bool) {
        if resumesReading { transport.delegateQueue.resumeReading(task) }
        if backPressure { transport.delegateQueue.releaseBackPressure() }
    }

    // MARK: - Stopping (delegate queue)

    /// Cancels the task for `reason` (`nil`: the caller cancelled) unless it finished; the first reason wins.
    func stop(because reason: URLError?) {
        let stop = lifecycle.stop(because: reason, sessionHoldsBack: transport.delegateQueue.isHoldingBack)
        guard let task else { return }
        switch stop {
        case .none:
            return
        case .cancel(let resumesReading):
            // Held back, libcurl's thread couldn't report the cancel; once it isn't, the cancel is quick and
            // the task reports its own end.
            release(resumesReading: resumesReading, backPressure: false)
            transport.delegateQueue.withoutWaiting { task.cancel() }
        case .cancelElsewhereAndFinish(let resumesReading, let releasesBackPressure):
            // Why off-queue: a reply may pour in faster than it is drained, and FoundationNetworking's
            // cancel waits until libcurl has read the socket empty; on the delegate queue it would read on
            // into queued operations, or forever. See <doc:LinuxNotes>.
            release(resumesReading: resumesReading, backPressure: releasesBackPressure)
            Self.cancelOffQueue(task)
            // The transfer ends now; what the task still reports is dropped, and a racing redirect or
            // challenge finds it stopped and is left unanswered.
            finish(with: nil, response: nil)
        }
    }

    /// Stops the transfer from any thread: the stop itself runs on the delegate queue.
    func stopFromAnyThread(because reason: URLError?) {
        transport.delegateQueue.enqueue { self.stop(because: reason) }
    }

    // MARK: - Flow (a stream's consumer falling behind)

    func pauseReading() {
        guard let task, lifecycle.pause() else { return }
        transport.delegateQueue.pauseReading(task)
    }

    func resumeReading() {
        transport.delegateQueue.enqueue {
            guard self.lifecycle.resume() else { return }
            self.touch()
            self.transport.delegateQueue.resumeReading(self.task)
        }
    }

    /// libcurl's "transfer closed with N bytes remaining" (or "end of response with N bytes missing"), and
    /// "Send failure: Broken pipe" (or "Connection reset by peer") when the connection drops in the middle of
    /// an upload's body, arrive as unknown error -1: each is a lost connection, so retries, upload and
    /// download resumes treat it alike. Other unknown errors stay unknown.
    static func connectionLost(_ error: any Error) -> any Error {
        guard let urlError = error as? URLError, urlError.code == .unknown,
            let text = urlError.userInfo[NSLocalizedDescriptionKey] as? String,
            truncationMessages.contains(where: text.hasPrefix)
        else { return error }
        return URLError(
            .networkConnectionLost,
            userInfo: [
                NSUnderlyingErrorKey: urlError, NSLocalizedDescriptionKey: urlError.localizedDescription,
            ])
    }

    private static let truncationMessages = [
        "transfer closed with", "end of response with", "Send failure: ",
    ]

    private func touch() {
        lastActivity = clock.now.uptimeNanoseconds
    }

    /// Why: FoundationNetworking's `cancel()` waits for libcurl's thread, which may be held back. On the
    /// concurrent work queue so one cancel's wait doesn't hold back the next.
    private static func cancelOffQueue(_ task: URLSessionTask) {
        Queues.work.async { task.cancel() }
    }
}
