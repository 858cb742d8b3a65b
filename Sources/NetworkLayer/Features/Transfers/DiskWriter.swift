import Foundation

/// Writes a download on a serial queue of its own (targeting ``Queues/disk``) so a slow disk never holds
/// up the delegate queue: chunks gathered into ``pieceSize`` pieces, the transfer paused past ``limit``
/// bytes waiting until half. A failed write surfaces in the next ``append(_:)`` or in ``close(_:)``.
/// The piece is the delegate queue's, the file the disk queue's, the counts ``Locked``'s. The sizes keep
/// what has arrived but isn't on disk (at most `limit` plus two pieces and a chunk) under 1 MiB: what a
/// killed process asks for again when its download resumes.
final class DiskWriter: @unchecked Sendable {
    static var limit: Int { 512 * 1024 }
    static var pieceSize: Int { 128 * 1024 }

    private struct State {
        var backlog = ConsumerBacklog(limit: DiskWriter.limit)
        var failure: POSIXFailure?
    }

    private let queue = DispatchQueue(label: "NetworkLayer.DiskWriter", target: Queues.disk)
    private let state = Locked(State())
    // Set once, in `init`.
    private weak var flow: (any TransferFlow)?
    // Delegate queue only.
    private var piece = Data()
    // Disk queue only.
    private var file: (any DiskFile)?

    /// Opens `url` on the disk queue keeping its first `length` bytes, then runs `prepare` there if it
    /// opened (a file that couldn't be cut back never gets a new version's record).
    init(
        url: URL, keeping length: Int64, on disk: any DownloadDisk, flow: (any TransferFlow)?,
        prepare: @escaping @Sendable () -> Void = {}
    ) {
        self.flow = flow
        queue.async { [self] in
            switch disk.openForWriting(url, keeping: length) {
            case .success(let opened):
                file = opened
                prepare()
            case .failure(let failure): failed(failure)
            }
        }
    }

    /// Takes `data` for the disk (delegate queue); an earlier write's failure, which ends the transfer.
    func append(_ data: Data) -> POSIXFailure? {
        if let failure = state.withLock({ $0.failure }) { return failure }
        piece.append(data)
        if piece.count >= Self.pieceSize { handOver() }
        return nil
    }

    /// Writes out what is gathered and closes the file, then tells `completion` (disk queue) the first
    /// failure: every byte that arrived is then on disk, for a resume.
    func close(_ completion: @escaping @Sendable (POSIXFailure?) -> Void) {
        handOver()
        queue.async { [self] in
            file?.close()
            file = nil
            completion(state.withLock { $0.failure })
        }
    }

    private func handOver() {
        guard !piece.isEmpty else { return }
        let data = piece
        piece = Data(capacity: Self.pieceSize)
        let pauses = state.withLock {
            $0.backlog.add(data.count) { [weak self] in self?.flow?.resumeReading() }
        }
        queue.async { [self] in
            // Past a failed write, a later piece would land after a hole, and a resume would deliver it.
            if let file, state.withLock({ $0.failure == nil }), case .failure(let failure) = file.write(data)
            {
                failed(failure)
            }
            state.withLock { $0.backlog.remove(data.count) }?()
        }
        if pauses { flow?.pauseReading() }
    }

    private func failed(_ failure: POSIXFailure) {
        // The first failure is the one reported; the transfer, which it ends, reads on.
        state.withLock { state in
            state.failure = state.failure ?? failure
            return state.backlog.end()
        }?()
    }
}

/// Where a download's partial file is written: the file system, or behind this seam a test's slow or
/// full disk.
protocol DownloadDisk: Sendable {
    /// Opens or creates `url` for writing, keeping its first `length` bytes, positioned at their end.
    func openForWriting(_ url: URL, keeping length: Int64) -> Result<any DiskFile, POSIXFailure>
}

/// A file open for writing, used by one queue at a time (a ``DiskWriter``'s).
protocol DiskFile: AnyObject {
    func write(_ data: Data) -> Result<Void, POSIXFailure>
    /// Closing twice does nothing.
    func close()
}

extension POSIXFile: DiskFile {}

struct FileSystemDisk: DownloadDisk {
    func openForWriting(_ url: URL, keeping length: Int64) -> Result<any DiskFile, POSIXFailure> {
        POSIXFile.openForWriting(url, keeping: length).map { $0 }
    }
}
