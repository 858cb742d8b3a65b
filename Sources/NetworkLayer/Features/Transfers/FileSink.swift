import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A download's reply, written to the partial file as it arrives and moved into place at the end; an
/// error reply stays in memory. Owned by the delegate queue, its file by the ``DiskWriter``'s queue.
/// Why a data task: on Linux a download task can't resume and never deletes its temporary file; see
/// <doc:DownloadsAndUploads>.
final class FileSink: TransferSink {
    private let job: DownloadJob
    private let request: URLRequest
    private let disk: any DownloadDisk
    /// Whether the server may be asked to continue the bytes on disk; not when the caller sent a Range.
    private let resumable: Bool
    private let partial: PartialDownload
    private var isRefused = false
    private weak var flow: (any TransferFlow)?
    private var phase = Phase.awaitingResponse(offset: 0, info: nil)

    private enum Phase {
        case awaitingResponse(offset: Int64, info: PartialDownload.Info?)
        case writing(DownloadPlan, file: DiskWriter, received: Int64)
        case errorReply(MemorySink)
        /// The reply can't continue the bytes on disk: once this task ends, start over from zero.
        case restarting
        case done
    }

    init(job: DownloadJob, request: URLRequest, disk: any DownloadDisk) {
        self.job = job
        self.disk = disk
        self.request = request
        resumable = request.value(forHTTPHeaderField: "Range") == nil
        partial = PartialDownload(destination: job.target.destination)
    }

    var needsBackPressure: Bool { true }

    func attach(_ flow: any TransferFlow) {
        self.flow = flow
    }

    func awaitTurn(_ start: @escaping @Sendable () -> Void) -> Bool {
        let outcome = DownloadClaims.claim(
            job.target.destination, for: self, isAbandoned: job.isAbandoned, whenGivenUp: start)
        // A busy destination goes ahead, to be refused in `prepare`.
        isRefused = outcome == .busy
        return outcome != .waiting
    }

    func prepare(_ request: URLRequest) -> Result<URLRequest, URLError> {
        guard !isRefused else {
            let destination = job.target.destination
            return .failure(
                URLError(
                    .cannotOpenFile, file: destination,
                    "Another download to \(destination.path) is in progress; wait for its handler, or cancel it, "
                        + "then start again."))
        }
        let restarts = job.target.options.contains(.restart) && job.restart.claim()
        let resume = resumable && !restarts ? partial.resumePoint() : nil
        var request = request
        if let resume, let validator = resume.info.validator {
            request.setValue("bytes=\(resume.offset)-", forHTTPHeaderField: "Range")
            request.setValue(validator, forHTTPHeaderField: "If-Range")
            // Byte ranges count the bytes on the wire: they must be the file's own bytes, not gzip's.
            request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        } else {
            partial.remove()
        }
        phase = .awaitingResponse(offset: resume?.offset ?? 0, info: resume?.info)
        return .success(request)
    }

    func open(_ response: URLResponse) -> SinkDecision {
        guard case .awaitingResponse(let offset, let info) = phase else { return .accept }
        guard let http = response as? HTTPURLResponse else { return keepErrorReply() }
        switch DownloadPlan.decide(http, requestedFrom: offset, resuming: info, resumable: resumable) {
        case .errorReply:
            return keepErrorReply()
        // At most once: the request sent again asks for no range, which `decide` never restarts.
        case .restart:
            phase = .restarting
            return .restart
        case .invalid:
            return .refuse(URLError(.badServerResponse))
        case .write where !job.accepts(http):
            // Not the file asked for: kept in memory, it fails its content-type check like any reply.
            return keepErrorReply()
        case .write(let plan):
            return open(plan)
        }
    }

    private func keepErrorReply() -> SinkDecision {
        phase = .errorReply(MemorySink(limit: job.errorBodyLimit, method: nil))
        return .accept
    }

    /// Opens the partial file on the disk's queue; failing to open ends the download as a failed write.
    private func open(_ plan: DownloadPlan) -> SinkDecision {
        let partial = partial
        let writer = DiskWriter(url: partial.file, keeping: plan.offset, on: disk, flow: flow) {
            guard plan.offset == 0 else { return }
            if let info = plan.info { partial.save(info) } else { partial.removeInfo() }
        }
        phase = .writing(plan, file: writer, received: 0)
        job.progress?.update(completed: plan.offset, expected: plan.expected)
        return .accept
    }

    func write(_ data: Data) -> URLError? {
        switch phase {
        case .writing(let plan, _, _) where plan.isEmpty:
            break
        case .writing(let plan, let file, let received):
            if let failure = file.append(data) { return writeFailed(failure) }
            let total = received + Int64(data.count)
            phase = .writing(plan, file: file, received: total)
            job.progress?.update(completed: plan.offset + total, expected: plan.expected)
        case .errorReply(let body):
            return body.write(data)
        case .awaitingResponse, .restarting, .done:
            break
        }
        return nil
    }

    /// A download keeps what it wrote: a redirect's body never reaches it, and a stopped one stays resumable.
    func discard() {}

    func restartRequest() -> URLRequest? {
        guard case .restarting = phase else { return nil }
        partial.remove()
        phase = .awaitingResponse(offset: 0, info: nil)
        return request
    }

    /// A download being written ends on the disk's queue once every byte is there: file closed, then kept
    /// or moved into place, then `completion`.
    func close(
        failure: (any Error)?, response: URLResponse?, respondedAt: UInt64?,
        then completion: @escaping @Sendable (TransferResult) -> Void
    ) {
        guard case .writing(let plan, let file, let received) = phase else {
            return completion(close(failure: failure, response: response, respondedAt: respondedAt))
        }
        phase = .done
        // From here on only the sink's constants are read, on the disk's queue.
        let sink = UncheckedSendable(value: self)
        file.close { closing in
            var result = TransferResult(
                body: Data(), response: response,
                error: sink.value.endWriting(plan, size: plan.offset + received, failure, closing: closing),
                respondedAt: respondedAt)
            result.storedBytes = received
            DownloadClaims.release(sink.value.job.target.destination, by: sink.value)
            completion(result)
        }
    }

    func close(failure: (any Error)?, response: URLResponse?, respondedAt: UInt64?) -> TransferResult {
        defer {
            phase = .done
            DownloadClaims.release(job.target.destination, by: self)
        }
        switch phase {
        case .errorReply(let body):
            return body.close(failure: failure, response: response, respondedAt: respondedAt)
        case .writing, .awaitingResponse, .restarting, .done:
            // A declined challenge ends before the delegate sees the reply: the 401 itself is the answer.
            let status = (response as? HTTPURLResponse)?.statusCode ?? 200
            let declined = failure == nil && !(200..<300).contains(status)
            return TransferResult(
                body: Data(), response: response,
                error: declined ? nil : failure ?? URLError(.badServerResponse),
                respondedAt: respondedAt)
        }
    }

    /// The outcome once the file is closed (`closing`: a write's or close's failure); disk queue.
    private func endWriting(
        _ plan: DownloadPlan, size: Int64, _ failure: (any Error)?, closing: POSIXFailure?
    ) -> (any Error)? {
        let short = plan.expected.map { $0 != size } == true ? URLError(.networkConnectionLost) : nil
        if let failure = failure ?? closing.map(writeFailed) ?? short {
            // Bytes that can't be resumed are no use.
            if plan.info == nil || size == 0 { partial.remove() }
            return failure
        }
        if let moveError = moveIntoPlace() { return moveError }
        job.progress?.complete(completed: size, expected: plan.expected)
        return nil
    }

    private func writeFailed(_ failure: POSIXFailure) -> URLError {
        URLError(
            .cannotWriteToFile, file: partial.file,
            "Writing the download to \(partial.file.path) failed: \(failure.reason).")
    }

    private func moveIntoPlace() -> URLError? {
        let destination = job.target.destination
        if !job.target.options.contains(.replaceExisting),
            FileManager.default.fileExists(atPath: destination.path)
        {
            return .destinationExists(destination)
        }
        if !POSIX.renameFile(partial.file.path, destination.path) {
            let failure = POSIXFailure()
            return URLError(
                .cannotMoveFile, file: destination,
                "The complete download could not be moved to \(destination.path): \(failure.reason).")
        }
        partial.removeInfo()
        return nil
    }
}
