import Foundation

/// Writes a download's bytes on a serial queue of its own (which targets ``Queues/disk``), so that the
/// session's delegate queue never waits for the disk: a slow disk must not hold up other transfers'
/// events, stops and deadlines.
///
/// The delegate queue gathers the chunks (16 KB each) into pieces of ``pieceSize`` and hands each piece
/// over: one hop and one system call per piece, not per chunk. The disk queue opens the file, writes and
/// closes it, in order. What waits for the disk is bounded: beyond ``limit`` bytes the transfer stops
/// reading (``TransferFlow/pauseReading()``) until the disk is down to half of it. A write that fails is
/// reported by the next ``append(_:)`` (which stops the transfer) or by ``close(_:)``; a paused transfer
/// reads on so that the next chunk comes.
///
/// The piece being gathered belongs to the delegate queue, the file to the disk queue; the counts,
/// shared between them, to ``Locked``.
final class DiskWriter: @unchecked Sendable {
    /// Bytes handed over and not yet written beyond which the transfer pauses.
    static var limit: Int { 1 << 20 }
    /// How much the delegate queue gathers before handing it to the disk.
    static var pieceSize: Int { 256 * 1024 }

    private struct State {
        var pending = 0
        var isPausing = false
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

    /// Opens `url` on `disk`, on the disk queue, keeping its first `length` bytes, then runs `prepare`
    /// there if it opened (so a file that couldn't be cut back never gets a new version's record); `flow`
    /// is the transfer to hold back while the disk is behind.
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

    /// Hands over what is gathered, writes it out and closes the file, then tells `completion` (on the
    /// disk queue) the first failure, if any. Every byte that arrived is on disk then, for a resume to
    /// continue.
    func close(_ completion: @escaping @Sendable (POSIXFailure?) -> Void) {
        handOver()
        queue.async { [self] in
            file?.close()
            file = nil
            completion(state.withLock { $0.failure })
        }
    }

    /// Hands the gathered piece to the disk queue, pausing the transfer when the disk is too far behind.
    private func handOver() {
        guard !piece.isEmpty else { return }
        let data = piece
        piece = Data(capacity: Self.pieceSize)
        let pauses: Bool = state.withLock { state in
            state.pending += data.count
            guard state.pending > Self.limit, !state.isPausing, state.failure == nil else { return false }
            state.isPausing = true
            return true
        }
        queue.async { [self] in
            // Past a failed write, a later piece would land after a hole, and a resume would deliver it.
            if let file, state.withLock({ $0.failure == nil }), case .failure(let failure) = file.write(data)
            {
                failed(failure)
            }
            written(data.count)
        }
        if pauses { flow?.pauseReading() }
    }

    private func written(_ count: Int) {
        let resumes: Bool = state.withLock { state in
            state.pending -= count
            guard state.isPausing, state.pending <= Self.limit / 2 || state.failure != nil else {
                return false
            }
            state.isPausing = false
            return true
        }
        if resumes { flow?.resumeReading() }
    }

    private func failed(_ failure: POSIXFailure) {
        state.withLock { state in
            if state.failure == nil { state.failure = failure }
        }
    }
}
