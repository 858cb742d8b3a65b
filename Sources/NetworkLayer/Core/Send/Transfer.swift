import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request on the session, the transfer engine: its task, its idle deadline, the stops the layer
/// makes (cancel, timeout, size limit), a declined challenge, and exactly one completion. Which of these
/// happens when is decided by its ``TransferLifecycle``; this class only does it. What happens to the
/// reply is its sink's business (in memory, or to a file); an upload adds a body source.
///
/// Owned by the session's serial delegate queue: every event from the session delegate, every stop and
/// the deadline sweep run there, so nothing here is locked. The one exception is the body source, which
/// FoundationNetworking rewinds on libcurl's thread. Stopping only on that queue keeps a stop ordered
/// against the task's completion and against a redirect being answered: that is what keeps
/// FoundationNetworking's traps out of reach (see ``SessionDelegate``). Everything is set up before the
/// task resumes, and a stop from elsewhere arrives as an operation on the delegate queue.
final class Transfer: Expiring, TransferFlow, @unchecked Sendable {
    typealias Completion = @Sendable (TransferResult) -> Void

    /// The requesting layer's rules for following redirects; layers sharing a session may differ.
    let redirectPolicy: RedirectPolicy
    private let request: URLRequest
    private let sink: any TransferSink
    private let source: BodySource?
    private let idleTimeout: TimeInterval
    private let transport: SessionTransport
    /// Keeps the idle deadline on the sending layer's clock; swept on the delegate queue.
    private let deadlines: DeadlineRegistry

    private var lifecycle = TransferLifecycle()
    /// The running task; the lifecycle says whether there is one.
    private var task: URLSessionTask?
    /// Given up once delivered, with everything it holds.
    private var completion: Completion?
    private var response: URLResponse?
    private var respondedAt: UInt64?
    private var lastActivity: UInt64

    /// - Parameters:
    ///   - request: What to send; its `timeoutInterval` is the idle timeout.
    ///   - sink: Where the reply goes.
    ///   - body: An upload's body, streamed; `nil` sends the request's own `httpBody`, if any.
    ///   - progress: Told how much of an upload's body went out.
    init(
        _ request: URLRequest, sink: any TransferSink, body: UploadBody?, progress: ProgressReporter?,
        redirectPolicy: RedirectPolicy, transport: SessionTransport, deadlines: DeadlineRegistry,
        completion: @escaping Completion
    ) {
        self.request = request
        self.sink = sink
        source = body.map { BodySource($0, progress: progress) }
        self.redirectPolicy = redirectPolicy
        self.transport = transport
        self.deadlines = deadlines
        self.completion = completion
        idleTimeout = request.timeoutInterval
        lastActivity = deadlines.now.uptimeNanoseconds
        sink.attach(self)
    }

    /// Starts the transfer, where the request is sent from (the caller's thread, the policy queue or,
    /// for a retry, the delegate queue).
    func start() {
        let ready = sink.awaitTurn {
            // Its turn came on another transfer's queue. A stop meanwhile found no task, and is delivered
            // here instead of sending.
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
            // The native form may mean writing a temporary file: never on the caller's queue nor the
            // delegate queue. A stop meanwhile finds no task, and is delivered here instead of sending.
            Queues.disk.async {
                let native = source.prepareNative()
                self.transport.delegateQueue.enqueue {
                    switch native {
                    case .success(let native):
                        source.adopt(native)
                        if self.lifecycle.canBegin { return self.begin(prepared) }
                    case .failure(let error):
                        self.lifecycle.failedToPrepare(error)
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
        if let source { source.attach(to: &request) }
        transport.delegateQueue.callingSession {
            let task = makeTask(for: request)
            self.task = task
            lifecycle.began()
            touch()
            transport.delegate.add(self, for: task)
            deadlines.register(self, deadline: deadlines.now + idleTimeout)
            task.resume()
        }
    }

    /// When the transfer times out unless data moves first; `nil` once it is stopped or over.
    var deadline: DispatchTime? {
        guard lifecycle.keepsDeadline else { return nil }
        let timeout = response == nil ? idleTimeout : sink.bodyIdleTimeout ?? idleTimeout
        // A consumer that is behind isn't the server being idle.
        if lifecycle.isPaused { return deadlines.now + timeout }
        return DispatchTime(uptimeNanoseconds: lastActivity) + timeout
    }

    /// The idle deadline passed without data moving (the session's deadline sweep, delegate queue).
    func expire() {
        stop(because: URLError(.timedOut))
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
                deadlines.register(self, deadline: deadlines.now + bodyTimeout)
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
            // As with a refusal, declining the reply doesn't end the task on Linux: without the cancel the
            // refused body would be read to its end (and a slow one would time the restart out). The task
            // reports the cancel, and `finish` starts over. From a thread of its own, as a stop does while
            // libcurl may be held back; no redirect or challenge can follow a reply's head.
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

    /// libcurl rewinds the body to send it again (a kept-alive connection turned out closed): a fresh
    /// stream over the whole body. On libcurl's thread, which waits for the answer.
    func newBodyStream() -> InputStream? {
        source?.newStream()
    }

    /// Stores the cookies a reply sets, where the layer keeps cookies (see ``SessionCookies``).
    func keepCookies(of response: URLResponse?) {
        transport.cookies?.store(from: response)
    }

    /// The server's redirect is being followed: what arrived so far belonged to the 3xx.
    func redirected() {
        touch()
        response = nil
        sink.discard()
    }

    /// Whether a redirect or challenge may still be answered: not once the layer has stopped the
    /// transfer (answering a cancelled task's redirect stops the process in FoundationNetworking).
    var isStopped: Bool { lifecycle.isStopped }

    /// The server asked for credentials the layer doesn't have. FoundationNetworking would wait
    /// forever for them; declining ends the task as cancelled, which ``finish(with:response:)`` turns
    /// back into the challenge's own reply (a 401 or 407 with its headers).
    func declineChallenge() {
        lifecycle.declineChallenge()
    }

    /// The task is over: start over if the sink asked to, or deliver what arrived, or why it stopped,
    /// exactly once.
    func finish(with error: (any Error)?, response taskResponse: URLResponse?) {
        let delivery: TransferLifecycle.Delivery
        switch lifecycle.ended() {
        case .ignore: return
        case .startOver:
            dropTask()
            if let request = sink.restartRequest() {
                response = nil
                return begin(request)
            }
            delivery = lifecycle.restartFailed()
        case .deliver(let ending):
            dropTask()
            delivery = ending
        }
        deliver(delivery, error: error, response: taskResponse)
    }

    /// The task is over: its deadline goes.
    private func dropTask() {
        if task != nil { deadlines.remove(self) }
        task = nil
    }

    /// Delivers what arrived, or why the transfer stopped: `error` and `taskResponse` are what the task
    /// reported.
    private func deliver(
        _ delivery: TransferLifecycle.Delivery, error: (any Error)?, response taskResponse: URLResponse?
    ) {
        guard let completion = completion.take() else { return assertionFailure("delivered twice") }
        if delivery.resumesReading {
            PlatformSession.resumeReading(task: nil, on: transport.delegateQueue)
        }
        if delivery.releasesBackPressure { transport.delegateQueue.releaseBackPressure() }
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
        sink.close(failure: failure, response: response, respondedAt: respondedAt, then: completion)
    }

    /// A data task; an upload task for a body sent natively from a file. Native bytes go out as
    /// `httpBody`, as the builder's bodies do: a URLProtocol on Linux sees no body of an upload task made
    /// from bytes.
    private func makeTask(for request: URLRequest) -> URLSessionTask {
        switch source?.native {
        case .file(let url, _)?:
            return transport.session.uploadTask(with: request, fromFile: url)
        case .data(let data)?:
            var request = request
            request.httpBody = data
            return transport.session.dataTask(with: request)
        case nil:
            return transport.session.dataTask(with: request)
        }
    }

    // MARK: - Stopping (delegate queue)

    /// Cancels the task for `reason` (`nil`: the caller cancelled) unless it has finished; the first
    /// reason wins.
    func stop(because reason: URLError?) {
        let holdsBack = transport.delegateQueue.isHoldingBack
        switch lifecycle.stop(because: reason, sessionHoldsBack: holdsBack) {
        case .none:
            return
        case .cancel(let resumesReading):
            guard let task else { return }
            // Held back, libcurl's thread couldn't report the cancel.
            if resumesReading { PlatformSession.resumeReading(task: task, on: transport.delegateQueue) }
            // Nothing is held back: the cancel is quick, and the task reports its own end.
            transport.delegateQueue.callingSession { task.cancel() }
        case .cancelElsewhereAndFinish(let resumesReading, let releasesBackPressure):
            guard let task else { return }
            if resumesReading { PlatformSession.resumeReading(task: task, on: transport.delegateQueue) }
            // A reply may be pouring in faster than it is drained (a gzip bomb, an endless stream): this
            // one, or another of the session's. A cancel waits for libcurl's thread, which takes it only
            // once it has read the socket empty. Cancelled here, the delegate queue would wait while that
            // thread, let past the back-pressure so as not to deadlock, reads on into queued operations
            // (175–265 MB for a gzip bomb, or a paused download's whole body), or for good against a fast
            // endless stream. So the cancel waits on a thread of its own instead, without letting libcurl
            // past: it lands once libcurl's thread moves (this transfer's own chunks are dropped as they
            // come, and a gate another transfer closed opens once its consumer catches up). Not on one
            // queue for all cancels: against a server writing flat out, one cancel may wait for as long as
            // the server writes, and must not hold back the next.
            if releasesBackPressure { transport.delegateQueue.releaseBackPressure() }
            Self.cancelOffQueue(task)
            // Nor does the outcome wait for it. The transfer ends now (a download's partial file closed,
            // the reason delivered), and what the task still reports is dropped; a redirect or challenge
            // racing the cancel finds the transfer stopped, and is left unanswered.
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
        PlatformSession.pauseReading(task: task, on: transport.delegateQueue)
    }

    func resumeReading() {
        transport.delegateQueue.enqueue {
            guard self.lifecycle.resume() else { return }
            self.touch()
            PlatformSession.resumeReading(task: self.task, on: self.transport.delegateQueue)
        }
    }

    /// libcurl's "transfer closed with N bytes remaining" (newer versions: "end of response with N bytes
    /// missing") arrives as an unknown error (-1): it is a lost connection, which a retry policy retries
    /// and a download resumes: the same cause gives the same error, whether the reply was going to
    /// memory or to a file. Any other unknown error stays unknown: nothing says that sending again helps.
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

    /// How libcurl's messages for a reply cut short begin.
    private static let truncationMessages = ["transfer closed with", "end of response with"]

    private func touch() {
        lastActivity = deadlines.now.uptimeNanoseconds
    }

    /// Cancels `task` from a thread of its own: FoundationNetworking's `cancel()` waits for libcurl's
    /// thread, which may be held back (see ``stop(because:)``).
    /// On the concurrent work queue, not a serial one: one cancel's wait must not hold back the next.
    private static func cancelOffQueue(_ task: URLSessionTask) {
        Queues.work.async { task.cancel() }
    }
}
