import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One attempt of a download: a delegate-driven data task whose body is written to the partial file
/// beside the destination as it arrives, then moved into place.
///
/// Why a data task and not a download task: on Linux a download task keeps its bytes in a temporary file
/// it never names, so nothing survives a failure to resume from, and it never deletes that file. A data
/// task hands each chunk to the delegate queue, which writes it (256 KB at a time, see
/// ``BufferedFileWriter``); the session's ``BackPressureQueue`` holds libcurl back when writing falls
/// behind, so the chunks waiting in memory never exceed about 512 KB.
///
/// What memory still grows by is FoundationNetworking's: for every 16 KB chunk it creates a timeout timer
/// on libcurl's queue, and the timers it replaced are freed only when libcurl's read loop returns, which
/// at full loopback speed is hundreds of megabytes later (heaptrack: 53,000 live timers, 11 MB of heap, at
/// the peak of a 1 GB download). A raw download task pays the same.
///
/// Every event runs on the session's serial delegate queue, and the layer stops the task only there, as
/// for ``DataTransfer``. State is guarded by `lock` because the idle timer reads it from its own queue.
final class DownloadTransfer: SessionTaskHandler, @unchecked Sendable {
    typealias Completion = @Sendable (TransferResult) -> Void
    /// Creates the session task for a request, registers this transfer as its handler and resumes it.
    typealias StartTask = @Sendable (URLRequest, DownloadTransfer) -> URLSessionTask

    let redirectPolicy: RedirectPolicy
    private let job: DownloadJob
    private let errorBodyLimit: Int
    private let idleTimeout: TimeInterval
    private let delegateQueue: BackPressureQueue
    private let progress: ProgressReporter?
    private let startTask: StartTask

    private let lock = NSLock()
    private var request: URLRequest
    private var task: URLSessionTask?
    private var completion: Completion?
    private var stopReason: URLError?
    private var declinedChallenge = false
    private var response: URLResponse?
    private var respondedAt: UInt64?
    private var lastActivity: UInt64
    private var idleTimer: IdleTimer?
    private var restarted = false
    /// Whether this attempt counts as a running download for the back-pressure.
    private var counted = false
    /// Whether the server may be asked to continue the bytes on disk; not when the caller sent a Range.
    private let resumable: Bool
    private var phase = Phase.awaitingResponse(offset: 0, info: nil)

    private enum Phase {
        case awaitingResponse(offset: Int64, info: PartialDownload.Info?)
        case writing(DownloadPlan, file: BufferedFileWriter, received: Int64)
        case errorReply(Data)
        /// The reply can't continue the bytes on disk: once this task ends, start over from zero.
        case restarting
        case done
    }

    init(
        job: DownloadJob, request: URLRequest, errorBodyLimit: Int, redirectPolicy: RedirectPolicy,
        delegateQueue: BackPressureQueue, progress: ProgressReporter?, startTask: @escaping StartTask,
        completion: @escaping Completion
    ) {
        self.job = job
        self.request = request
        self.errorBodyLimit = max(0, errorBodyLimit)
        self.redirectPolicy = redirectPolicy
        idleTimeout = request.timeoutInterval
        self.delegateQueue = delegateQueue
        self.progress = progress
        self.startTask = startTask
        self.completion = completion
        resumable = request.value(forHTTPHeaderField: "Range") == nil
        lastActivity = DispatchTime.now().uptimeNanoseconds
    }

    private var partial: PartialDownload { job.partial }

    /// Starts the attempt: continues the partial download when there is one to continue.
    func start() {
        guard DownloadClaims.claim(job.target.destination, for: self) else {
            if case .transport(let error) = FileError.destinationBusy(job.target.destination) {
                lock.withLock { stopReason = error }
            }
            delegateQueue.addOperation { self.finish(with: nil, response: nil) }
            return
        }
        delegateQueue.downloadStarted()
        lock.withLock { counted = true }
        if job.takeRestart() || !resumable { partial.remove() }
        let resume = resumable ? partial.resumePoint() : nil
        var request = request
        if let resume, let validator = resume.info.validator {
            request.setValue("bytes=\(resume.offset)-", forHTTPHeaderField: "Range")
            request.setValue(validator, forHTTPHeaderField: "If-Range")
            // Byte ranges count the bytes on the wire: they must be the file's own bytes, not gzip's.
            request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        } else if resumable {
            partial.remove()
        }
        lock.withLock { phase = .awaitingResponse(offset: resume?.offset ?? 0, info: resume?.info) }
        begin(request)
        startIdleTimer()
    }

    private func begin(_ request: URLRequest) {
        let task = delegateQueue.withoutWaiting { startTask(request, self) }
        let stopped = lock.withLock {
            self.task = task
            return stopReason != nil
        }
        // Stopped while the task was being created: cancel it, on the delegate queue.
        if stopped { stopFromAnyThread(because: nil) }
    }

    // MARK: - Events from the session delegate (delegate queue)

    func receive(_ response: URLResponse) -> Bool {
        let (allowed, progressed): (Bool, DownloadPlan?) = lock.withLock {
            touch()
            respondedAt = lastActivity
            self.response = response
            guard case .awaitingResponse(let offset, let info) = phase else { return (true, nil) }
            guard let http = response as? HTTPURLResponse else {
                phase = .errorReply(Data())
                return (true, nil)
            }
            switch DownloadPlan.decide(http, requestedFrom: offset, resuming: info, resumable: resumable) {
            case .errorReply:
                phase = .errorReply(Data())
                return (true, nil)
            case .restart where !restarted:
                phase = .restarting
                return (false, nil)
            case .restart, .invalid:
                stopReason = URLError(.badServerResponse)
                return (false, nil)
            case .write(let plan):
                return open(plan)
            }
        }
        if let progressed { progress?.update(completed: progressed.offset, expected: progressed.expected) }
        return allowed
    }

    /// Opens the partial file for `plan` (under `lock`): `(allowed, plan)`.
    private func open(_ plan: DownloadPlan) -> (Bool, DownloadPlan?) {
        if plan.offset == 0 {
            if let info = plan.info { partial.save(info) } else { partial.removeInfo() }
        }
        switch POSIXFile.openForWriting(partial.file, keeping: plan.offset) {
        case .success(let file):
            phase = .writing(plan, file: BufferedFileWriter(file), received: 0)
            return (true, plan)
        case .failure(let failure):
            stopReason = FileError.writeFailed(partial.file, reason: failure.reason)
            phase = .done
            return (false, nil)
        }
    }

    func receive(_ data: Data) {
        var failed: URLError?
        var report: (Int64, Int64?)?
        lock.withLock {
            guard completion != nil, stopReason == nil else { return }
            touch()
            switch phase {
            case .writing(let plan, let file, let received):
                if case .failure(let failure) = file.append(data) {
                    failed = FileError.writeFailed(partial.file, reason: failure.reason)
                    return
                }
                phase = .writing(plan, file: file, received: received + Int64(data.count))
                report = (plan.offset + received + Int64(data.count), plan.expected)
            case .errorReply(var body):
                guard body.count + data.count <= errorBodyLimit else {
                    failed = DataTransfer.tooLarge(errorBodyLimit)
                    return
                }
                phase = .done
                body.append(data)
                phase = .errorReply(body)
            case .awaitingResponse, .restarting, .done:
                break
            }
        }
        if let failed { stop(because: failed) }
        if let report { progress?.update(completed: report.0, expected: report.1) }
    }

    func redirected() {
        lock.withLock { touch() }
    }

    var isStopped: Bool { lock.withLock { stopReason != nil || completion == nil } }

    func declineChallenge() {
        lock.withLock { declinedChallenge = true }
    }

    func finish(with error: (any Error)?, response taskResponse: URLResponse?) {
        let outcome: (Completion, TransferResult)? = lock.withLock {
            guard let completion else { return nil }
            if case .restarting = phase, stopReason == nil {
                restarted = true
                partial.remove()
                phase = .awaitingResponse(offset: 0, info: nil)
                response = nil
                return nil
            }
            self.completion = nil
            task = nil
            idleTimer?.cancel()
            idleTimer = nil
            let result = settle(error: error, response: response ?? taskResponse)
            phase = .done
            return (completion, result)
        }
        guard let (completion, result) = outcome else {
            if lock.withLock({ completion != nil }) { begin(request) }
            return
        }
        DownloadClaims.release(job.target.destination, by: self)
        if lock.withLock({ counted }) { delegateQueue.downloadEnded() }
        completion(result)
    }

    /// The attempt's result, with the partial file moved into place, kept for a later resume, or
    /// removed (under `lock`).
    private func settle(error: (any Error)?, response: URLResponse?) -> TransferResult {
        let declined = declinedChallenge && (error as? URLError)?.code == .cancelled
        let failure = stopReason ?? (declined ? nil : error)
        switch phase {
        case .writing(let plan, let file, let received):
            let size = plan.offset + received
            if case .failure(let closing) = file.close(), failure == nil {
                keepOrRemovePartial(plan, size: size)
                let error = FileError.writeFailed(partial.file, reason: closing.reason)
                return result(response: response, error: error, stored: received)
            }
            if let failure {
                keepOrRemovePartial(plan, size: size)
                return result(response: response, error: Self.connectionLost(failure), stored: received)
            }
            if let expected = plan.expected, expected != size {
                keepOrRemovePartial(plan, size: size)
                return result(response: response, error: URLError(.networkConnectionLost), stored: received)
            }
            if let moveError = moveIntoPlace() {
                return result(response: response, error: moveError, stored: received)
            }
            progress?.complete(completed: size, expected: plan.expected)
            return result(response: response, error: nil, stored: received)
        case .errorReply(let body):
            return TransferResult(body: body, response: response, error: failure, respondedAt: respondedAt)
        case .awaitingResponse, .restarting, .done:
            // A declined challenge ends before the delegate sees the reply: the 401 itself is the answer.
            if failure == nil, let reply = response as? HTTPURLResponse,
                !(200..<300).contains(reply.statusCode)
            {
                return result(response: response, error: nil, stored: 0)
            }
            return result(response: response, error: failure ?? URLError(.badServerResponse), stored: 0)
        }
    }

    private func result(response: URLResponse?, error: (any Error)?, stored: Int64) -> TransferResult {
        var result = TransferResult(body: Data(), response: response, error: error, respondedAt: respondedAt)
        result.storedBytes = stored
        return result
    }

    /// libcurl's "transfer closed with N bytes remaining" arrives as an unknown error (-1): it is a lost
    /// connection, which a retry policy retries and the next attempt resumes.
    private static func connectionLost(_ error: any Error) -> any Error {
        guard let urlError = error as? URLError, urlError.code == .unknown else { return error }
        return URLError(
            .networkConnectionLost,
            userInfo: [
                NSUnderlyingErrorKey: urlError, NSLocalizedDescriptionKey: urlError.localizedDescription,
            ])
    }

    /// After a failure: bytes that can be resumed stay for the next download; others go.
    private func keepOrRemovePartial(_ plan: DownloadPlan, size: Int64) {
        if plan.info == nil || size == 0 { partial.remove() }
    }

    /// Moves the complete partial file to the destination; the error, or `nil` once it is there.
    private func moveIntoPlace() -> URLError? {
        let destination = job.target.destination
        if !job.target.options.contains(.replaceExisting),
            FileManager.default.fileExists(atPath: destination.path)
        {
            if case .transport(let error) = FileError.destinationExists(destination) { return error }
        }
        if case .failure(let failure) = POSIXFile.rename(partial.file, to: destination) {
            return FileError.moveFailed(destination, reason: failure.reason)
        }
        partial.removeInfo()
        return nil
    }

    // MARK: - Stopping (delegate queue)

    /// Cancels the task for `reason` (`nil`: the caller cancelled) unless it has finished; the first
    /// reason wins. A download cancelled by its caller keeps its partial file for a later resume.
    func stop(because reason: URLError?) {
        let task: URLSessionTask? = lock.withLock {
            guard completion != nil else { return nil }
            if stopReason == nil { stopReason = reason ?? URLError(.cancelled) }
            return self.task
        }
        if let task { delegateQueue.withoutWaiting { task.cancel() } }
    }

    /// Stops the transfer from any thread: the stop itself runs on the delegate queue.
    func stopFromAnyThread(because reason: URLError?) {
        delegateQueue.addOperation { self.stop(because: reason) }
    }

    // MARK: - Idle timeout

    private func touch() {
        lastActivity = DispatchTime.now().uptimeNanoseconds
    }

    /// Starts the idle timer; it ends with the transfer.
    private func startIdleTimer() {
        let timer = IdleTimer(
            timeout: idleTimeout,
            idleFor: { [weak self] in self?.idleSeconds() },
            expire: { [weak self] in self?.stopFromAnyThread(because: URLError(.timedOut)) })
        lock.withLock { idleTimer = timer }
    }

    /// Seconds since data last moved; `nil` once the transfer is over.
    private func idleSeconds() -> TimeInterval? {
        lock.withLock {
            guard completion != nil else { return nil }
            return TimeInterval(DispatchTime.now().uptimeNanoseconds - lastActivity) / 1e9
        }
    }
}
