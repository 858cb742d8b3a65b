import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download's reply, written to the partial file beside the destination as it arrives and moved into
/// place at the end; an error reply is kept in memory instead, for the error.
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
/// Owned by the delegate queue, like its ``Transfer``: no lock is held while the disk is touched.
final class FileSink: TransferSink {
    private let job: DownloadJob
    private let request: URLRequest
    private let errorBodyLimit: Int
    private let progress: ProgressReporter?
    /// Whether the server may be asked to continue the bytes on disk; not when the caller sent a Range.
    private let resumable: Bool
    private var restarted = false
    private var phase = Phase.awaitingResponse(offset: 0, info: nil)

    private enum Phase {
        case awaitingResponse(offset: Int64, info: PartialDownload.Info?)
        case writing(DownloadPlan, file: BufferedFileWriter, received: Int64)
        case errorReply(Data)
        /// The reply can't continue the bytes on disk: once this task ends, start over from zero.
        case restarting
        case done
    }

    init(job: DownloadJob, request: URLRequest, errorBodyLimit: Int, progress: ProgressReporter?) {
        self.job = job
        self.request = request
        self.errorBodyLimit = max(0, errorBodyLimit)
        self.progress = progress
        resumable = request.value(forHTTPHeaderField: "Range") == nil
    }

    private var partial: PartialDownload { job.partial }

    /// Every download is held back when the disk falls behind.
    var needsBackPressure: Bool { true }

    /// Claims the destination and continues the partial download when there is one to continue.
    func prepare(_ request: URLRequest) -> Result<URLRequest, URLError> {
        guard DownloadClaims.claim(job.target.destination, for: self) else {
            guard case .transport(let error) = FileError.destinationBusy(job.target.destination) else {
                return .failure(URLError(.cannotCreateFile))
            }
            return .failure(error)
        }
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
        phase = .awaitingResponse(offset: resume?.offset ?? 0, info: resume?.info)
        return .success(request)
    }

    func open(_ response: URLResponse) -> SinkDecision {
        guard case .awaitingResponse(let offset, let info) = phase else { return .accept }
        guard let http = response as? HTTPURLResponse else {
            phase = .errorReply(Data())
            return .accept
        }
        switch DownloadPlan.decide(http, requestedFrom: offset, resuming: info, resumable: resumable) {
        case .errorReply:
            phase = .errorReply(Data())
            return .accept
        case .restart where !restarted:
            phase = .restarting
            return .restart
        case .restart, .invalid:
            return .refuse(URLError(.badServerResponse))
        case .write where !job.accepts(http):
            // Not the file asked for: nothing goes to disk, and the reply, kept in memory, fails its
            // content-type check as any other reply would.
            phase = .errorReply(Data())
            return .accept
        case .write(let plan):
            return open(plan)
        }
    }

    /// Opens the partial file for `plan`.
    private func open(_ plan: DownloadPlan) -> SinkDecision {
        if plan.offset == 0 {
            if let info = plan.info { partial.save(info) } else { partial.removeInfo() }
        }
        switch POSIXFile.openForWriting(partial.file, keeping: plan.offset) {
        case .success(let file):
            phase = .writing(plan, file: BufferedFileWriter(file), received: 0)
            progress?.update(completed: plan.offset, expected: plan.expected)
            return .accept
        case .failure(let failure):
            phase = .done
            return .refuse(FileError.writeFailed(partial.file, reason: failure.reason))
        }
    }

    func write(_ data: Data) -> URLError? {
        switch phase {
        case .writing(let plan, let file, let received):
            if case .failure(let failure) = file.append(data) {
                return FileError.writeFailed(partial.file, reason: failure.reason)
            }
            let total = received + Int64(data.count)
            phase = .writing(plan, file: file, received: total)
            progress?.update(completed: plan.offset + total, expected: plan.expected)
        case .errorReply(var body):
            guard body.count + data.count <= errorBodyLimit else {
                return MemorySink.tooLarge(errorBodyLimit)
            }
            // Out of the enum while it grows, so the append doesn't copy it.
            phase = .done
            body.append(data)
            phase = .errorReply(body)
        case .awaitingResponse, .restarting, .done:
            break
        }
        return nil
    }

    /// A download keeps what it wrote: a redirect's body never reaches it, and a stopped download stays
    /// resumable.
    func discard() {}

    func restartRequest() -> URLRequest? {
        guard case .restarting = phase else { return nil }
        restarted = true
        partial.remove()
        phase = .awaitingResponse(offset: 0, info: nil)
        return request
    }

    func close(failure: (any Error)?, response: URLResponse?, respondedAt: UInt64?) -> TransferResult {
        defer {
            phase = .done
            DownloadClaims.release(job.target.destination, by: self)
        }
        func result(_ error: (any Error)?, stored: Int64) -> TransferResult {
            var result = TransferResult(
                body: Data(), response: response, error: error, respondedAt: respondedAt)
            result.storedBytes = stored
            return result
        }
        switch phase {
        case .writing(let plan, let file, let received):
            let size = plan.offset + received
            if case .failure(let closing) = file.close(), failure == nil {
                keepOrRemovePartial(plan, size: size)
                return result(FileError.writeFailed(partial.file, reason: closing.reason), stored: received)
            }
            if let failure {
                keepOrRemovePartial(plan, size: size)
                return result(failure, stored: received)
            }
            if let expected = plan.expected, expected != size {
                keepOrRemovePartial(plan, size: size)
                return result(URLError(.networkConnectionLost), stored: received)
            }
            if let moveError = moveIntoPlace() {
                return result(moveError, stored: received)
            }
            progress?.complete(completed: size, expected: plan.expected)
            return result(nil, stored: received)
        case .errorReply(let body):
            return TransferResult(body: body, response: response, error: failure, respondedAt: respondedAt)
        case .awaitingResponse, .restarting, .done:
            // A declined challenge ends before the delegate sees the reply: the 401 itself is the answer.
            if failure == nil, let reply = response as? HTTPURLResponse,
                !(200..<300).contains(reply.statusCode)
            {
                return result(nil, stored: 0)
            }
            return result(failure ?? URLError(.badServerResponse), stored: 0)
        }
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
}
