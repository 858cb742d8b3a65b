import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One request on the session, the transfer engine: its task, its idle deadline, the stops the layer
/// makes (cancel, timeout, size limit), a declined challenge, and exactly one completion. What happens
/// to the reply is its sink's business (in memory, or to a file); an upload adds a body source.
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

    private var task: URLSessionTask?
    private var completion: Completion?
    private var stopReason: URLError?
    private var declinedChallenge = false
    private var response: URLResponse?
    private var respondedAt: UInt64?
    private var lastActivity: UInt64
    private var holdsBackPressure = false
    private var restarting = false
    /// Pauses for a stream whose consumer is behind.
    private var pauses = ReadingPauses()

    /// - Parameters:
    ///   - request: What to send; its `timeoutInterval` is the idle timeout.
    ///   - sink: Where the reply goes.
    ///   - body: An upload's body, streamed; `nil` sends the request's own `httpBody`, if any.
    ///   - progress: Told how much of an upload's body went out.
    init(
        _ request: URLRequest, sink: any TransferSink, body: UploadBody?, progress: ProgressReporter?,
        redirectPolicy: RedirectPolicy, transport: SessionTransport, completion: @escaping Completion
    ) {
        self.request = request
        self.sink = sink
        source = body.map { BodySource($0, progress: progress) }
        self.redirectPolicy = redirectPolicy
        self.transport = transport
        self.completion = completion
        idleTimeout = request.timeoutInterval
        lastActivity = DispatchTime.now().uptimeNanoseconds
        sink.attach(self)
    }

    /// Starts the transfer, where the request is sent from (the caller's thread, the policy queue or,
    /// for a retry, the delegate queue).
    func start() {
        let ready = sink.awaitTurn {
            // Its turn came on another transfer's queue. A stop meanwhile found no task, and is delivered
            // here instead of sending.
            self.transport.delegateQueue.enqueue {
                guard self.stopReason == nil else { return self.finish(with: nil, response: nil) }
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
                        if self.stopReason == nil { return self.begin(prepared) }
                    case .failure(let error):
                        if self.stopReason == nil { self.stopReason = error }
                    }
                    self.finish(with: nil, response: nil)
                }
            }
        case .failure(let error):
            stopReason = error
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
            lastActivity = DispatchTime.now().uptimeNanoseconds
            transport.delegate.add(self, for: task)
            transport.clock.register(self, deadline: .now() + idleTimeout)
            task.resume()
        }
    }

    /// When the transfer times out unless data moves first; `nil` once it is stopped or over.
    var deadline: DispatchTime? {
        guard completion != nil, stopReason == nil else { return nil }
        let timeout = response == nil ? idleTimeout : sink.bodyIdleTimeout ?? idleTimeout
        // A consumer that is behind isn't the server being idle.
        if pauses.isPaused { return .now() + timeout }
        return DispatchTime(uptimeNanoseconds: lastActivity) + timeout
    }

    /// The idle deadline passed without data moving (the session's deadline sweep, delegate queue).
    func expire() {
        stop(because: URLError(.timedOut))
    }

    // MARK: - Events from the session delegate (delegate queue)

    /// A response head arrived; `false` cancels the task.
    func receive(_ response: URLResponse) -> Bool {
        // A head that was already on its way when the transfer stopped: accepted, it would take a
        // back-pressure hold that nothing releases any more.
        guard completion != nil, stopReason == nil, !restarting else { return false }
        touch()
        keepCookies(of: response)
        respondedAt = lastActivity
        self.response = response
        switch sink.open(response) {
        case .accept:
            if let bodyTimeout = sink.bodyIdleTimeout, bodyTimeout < idleTimeout {
                // The clock is armed for the request's timeout: bring it forward.
                transport.clock.register(self, deadline: .now() + bodyTimeout)
            }
            if sink.needsBackPressure && !holdsBackPressure {
                holdsBackPressure = true
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
            restarting = true
            if let task { Queues.work.async { task.cancel() } }
            return false
        }
    }

    /// Body bytes arrived. Once stopped, what FoundationNetworking still hands over is dropped.
    func receive(_ data: Data) {
        guard completion != nil, stopReason == nil else { return }
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
    var isStopped: Bool { stopReason != nil || completion == nil || restarting }

    /// The server asked for credentials the layer doesn't have. FoundationNetworking would wait
    /// forever for them; declining ends the task as cancelled, which ``finish(with:response:)`` turns
    /// back into the challenge's own reply (a 401 or 407 with its headers).
    func declineChallenge() {
        declinedChallenge = true
    }

    /// The task is over: start over if the sink asked to, or deliver what arrived, or why it stopped,
    /// exactly once.
    func finish(with error: (any Error)?, response taskResponse: URLResponse?) {
        guard let completion else { return }
        if task != nil { transport.clock.remove(self) }
        task = nil
        if restarting, stopReason == nil, let request = sink.restartRequest() {
            restarting = false
            response = nil
            return begin(request)
        }
        self.completion = nil
        if pauses.removeAll() {
            PlatformSession.resumeReading(task: nil, on: transport.delegateQueue)
        }
        if holdsBackPressure {
            holdsBackPressure = false
            transport.delegateQueue.releaseBackPressure()
        }
        let declined = declinedChallenge && (error as? URLError)?.code == .cancelled
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
        guard completion != nil else { return }
        if stopReason == nil { stopReason = reason ?? URLError(.cancelled) }
        guard let task else { return }
        if pauses.removeAll() {
            // Held back, libcurl's thread couldn't report the cancel.
            PlatformSession.resumeReading(task: task, on: transport.delegateQueue)
        }
        if holdsBackPressure || transport.delegateQueue.isHoldingBack {
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
            if holdsBackPressure {
                holdsBackPressure = false
                transport.delegateQueue.releaseBackPressure()
            }
            Queues.work.async { task.cancel() }
            // Nor does the outcome wait for it. The transfer ends now (a download's partial file closed,
            // the reason delivered), and what the task still reports is dropped; a redirect or challenge
            // racing the cancel finds the transfer stopped, and is left unanswered.
            finish(with: nil, response: nil)
        } else {
            // Nothing is held back: the cancel is quick, and the task reports its own end.
            transport.delegateQueue.callingSession { task.cancel() }
        }
    }

    /// Stops the transfer from any thread: the stop itself runs on the delegate queue.
    func stopFromAnyThread(because reason: URLError?) {
        transport.delegateQueue.enqueue { self.stop(because: reason) }
    }

    // MARK: - Flow (a stream's consumer falling behind)

    func pauseReading() {
        guard completion != nil, let task, pauses.pause() else { return }
        PlatformSession.pauseReading(task: task, on: transport.delegateQueue)
    }

    func resumeReading() {
        transport.delegateQueue.enqueue {
            guard self.pauses.resume() else { return }
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
        lastActivity = DispatchTime.now().uptimeNanoseconds
    }
}
