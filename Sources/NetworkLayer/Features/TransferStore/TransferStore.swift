import Foundation

/// Uploads and downloads that survive the app being killed: each transfer sent through the store is
/// recorded in a directory the app names, kept up to date as the server acknowledges bytes, and listed at
/// the next launch to be resumed.
///
/// ```swift
/// let store = try TransferStore(directory: transfersFolder, layer: network)
/// for transfer in store.unfinishedTransfers {
///     try store.resume(transfer, ifSourceChanged: .startOver, successHandler: { _ in }, errorHandler: { _ in })
/// }
/// ```
///
/// A transfer is a resumable upload from a file (``NetworkRequest/upload(urlString:fileURL:resumable:contentType:headers:)``)
/// or a download to a file; every one goes through the layer's `send`, so interceptors, monitors and test
/// doubles see it. A finished transfer's record is removed; a failed or cancelled one stays for
/// ``resume(_:ifSourceChanged:retryPolicy:progressHandler:successHandler:errorHandler:)`` until ``remove(_:)``.
/// See <doc:DurableTransfers>.
public final class TransferStore: Sendable {
    /// What ``resume(_:ifSourceChanged:retryPolicy:progressHandler:successHandler:errorHandler:)`` does with an upload
    /// whose source file's size or modification date differs from when it began.
    public enum SourceChangeAction: Sendable, Hashable {
        /// The upload fails with ``NetworkError/sourceFileChanged(_:)``; its record stays.
        case fail
        /// The upload starts over: created again on the server, the whole file sent.
        case startOver
    }

    /// The directory the records are in.
    public let directory: URL
    let layer: NetworkLayer
    let folder: DurableFolder
    /// Held until ``close()`` or the store goes: no other store, in any process, writes the directory
    /// meanwhile.
    private let claim: DurableFolderLock
    /// Writes and removes records, in the order they were asked for; targets the disk queue.
    let queue = DispatchQueue(label: "NetworkLayer.TransferStore", target: Queues.disk)
    /// The records and what runs; never held while the disk is touched or a handler runs.
    let state: Locked<TransferStoreState>
    private static let suffix = ".transfer"
    /// A record holds paths, a URL and headers: a larger file is no record of this store's.
    private static let largestRecord = 1 << 20

    /// Opens the store in `directory` (creating it) and reads the transfers an earlier process left.
    ///
    /// - Parameters:
    ///   - directory: The store's own directory, such as one in Application Support; created readable by
    ///     the user only (an existing one keeps its permissions).
    ///   - layer: What sends the transfers; its base URL resolves a new transfer's path (a record keeps
    ///     the absolute URL).
    ///   - recordKey: A secret kept outside `directory` (the Keychain, say), 32 random bytes per
    ///     installation, that authenticates the records (HMAC-SHA256): a record not written under it, such
    ///     as one another program put in `directory` to have some file uploaded, is set aside as damaged
    ///     and never resumed. At least 16 bytes. Without it, records are only checksummed. See
    ///     <doc:DurableTransfers>.
    /// - Throws: ``TransferStoreError/inUse`` when another store (in any process) has the directory;
    ///   ``TransferStoreError/writeFailed(_:)`` when it can't be made, or when `recordKey` is shorter than
    ///   16 bytes (the reason says so).
    public init(directory: URL, layer: NetworkLayer, recordKey: Data? = nil) throws(TransferStoreError) {
        self.directory = directory
        self.layer = layer
        // The directory is the app's: created 0700, an existing one left as it is.
        (claim, folder) = try DurableFolder.claim(
            directory, key: recordKey, restrictingExisting: false, inUse: TransferStoreError.inUse,
            failed: TransferStoreError.writeFailed)
        let records = folder.load(
            TransferRecord.self, named: Self.suffix, version: TransferRecord.version,
            maximumSize: Self.largestRecord, fileName: \.fileName
        ).records
        state = Locked(
            TransferStoreState(
                records: Dictionary(records.map { ($0.id, $0) }) { _, last in last },
                // Above every name in the folder, read or not, so no record is written over.
                lastSequence: folder.lastSequence()))
    }

    /// The transfers not finished, in the order they began: running in this process, or left by an
    /// earlier one (failed, cancelled or killed) to be resumed.
    public var unfinishedTransfers: [StoredTransfer] {
        let records = state.withLock { $0.records.values.sorted { $0.sequence < $1.sequence } }
        // The download's bytes are counted on disk, outside the lock.
        return records.map(Self.transfer)
    }

    /// Stops the transfers running through this store and releases the directory at once, so another
    /// store (in this process or another) may open it; later calls to ``send(_:successHandler:errorHandler:)``
    /// and ``resume(_:ifSourceChanged:retryPolicy:progressHandler:successHandler:errorHandler:)`` throw
    /// ``TransferStoreError/closed``. Deinitializing the store releases the directory too, but only once
    /// every transfer it runs has ended.
    ///
    /// A running transfer is cancelled: its error handler gets ``NetworkError/cancelled``, and its record
    /// stays, as last written, for the next store's ``unfinishedTransfers`` (an upload stays on the server,
    /// to be resumed from the offset the server has). Writes asked for before `close()` are on disk when it
    /// returns; nothing in the directory is touched after. Calling it again does nothing.
    public func close() {
        let tasks = queue.sync { () -> [any NetworkTask] in
            // Released outside the state's lock: it closes a file.
            defer { claim.release() }
            return state.withLock { $0.close() }
        }
        for task in tasks { task.cancel() }
    }

    /// Runs `work` on the store's queue, after the writes asked for before, unless the store is closed
    /// by then: the directory may be another store's. With `waiting`, returns once it ran.
    func onDisk(waiting: Bool = false, _ work: @escaping @Sendable () -> Void) {
        let guarded: @Sendable () -> Void = { [state] in
            if !state.withLock(\.isClosed) { work() }
        }
        if waiting { queue.sync(execute: guarded) } else { queue.async(execute: guarded) }
    }

    /// Forgets `transfer`: cancels it if it runs here, removes its record and, for a download, its
    /// partial file. An upload's bytes on the server are left to the server's own expiry.
    ///
    /// - Parameter transfer: A transfer from ``unfinishedTransfers``.
    public func remove(_ transfer: StoredTransfer) {
        let (record, run) = state.withLock { state in
            (state.records.removeValue(forKey: transfer.id), state.runs.removeValue(forKey: transfer.id))
        }
        run?.task?.cancel()
        guard let record else { return }
        onDisk { [folder] in
            folder.remove(record.fileName)
            if record.kind == .download { PartialDownload(destination: record.fileURL).remove() }
        }
    }

    /// Writes `record` on the store's queue, after every write asked for before, and waits.
    func writeNow(_ record: TransferRecord) throws(TransferStoreError) {
        try queue.sync {
            Result { () throws(TransferStoreError) in
                guard !state.withLock(\.isClosed) else { throw .closed }
                try write(record)
            }
        }.get()
    }

    func write(_ record: TransferRecord) throws(TransferStoreError) {
        do {
            let payload = try JSONEncoder().encode(record)
            try folder.write(
                payload, contentVersion: TransferRecord.version, as: record.fileName, flushToDevice: false)
        } catch {
            throw .writeFailed((error as? DurableWriteError)?.reason ?? "\(error)")
        }
    }

    private static func transfer(_ record: TransferRecord) -> StoredTransfer {
        var completed = record.offset
        var expected = record.sourceSize
        if record.kind == .download {
            let partial = PartialDownload(destination: record.fileURL)
            completed = partial.receivedBytes
            expected = partial.resumePoint()?.info.totalBytes
        }
        return StoredTransfer(
            id: record.id, kind: record.kind, file: record.fileURL,
            remoteURL: URL(string: record.url) ?? URL(fileURLWithPath: "/"), completedBytes: completed,
            expectedBytes: expected)
    }
}

/// A ``TransferStore``'s records and the transfers running in this process.
struct TransferStoreState {
    var records: [UUID: TransferRecord]
    /// Which start of each running transfer is current, and its task once known: a task returned after
    /// its transfer ended (or started again) is not kept.
    var runs: [UUID: (number: Int, task: (any NetworkTask)?)] = [:]
    var tasks: [UUID: any NetworkTask] { runs.compactMapValues(\.task) }
    var lastRun = 0
    /// Set by ``TransferStore/close()``, on the store's queue: nothing touches the directory after.
    private(set) var isClosed = false

    /// The highest sequence given: never reused, so a record's name is never one being removed.
    private(set) var lastSequence: UInt64

    mutating func nextSequence() -> UInt64 {
        lastSequence += 1
        return lastSequence
    }

    /// Closes the store: every run ends, and their tasks are returned to be cancelled.
    mutating func close() -> [any NetworkTask] {
        isClosed = true
        defer { runs = [:] }
        return Array(tasks.values)
    }

    /// Begins a run of `id` (`new` its record, for a transfer being sent): refused when the store is
    /// closed, or when the transfer is gone or running.
    mutating func begin(_ id: UUID, adding new: TransferRecord? = nil)
        -> Result<(record: TransferRecord, run: Int), TransferStoreError>
    {
        guard !isClosed else { return .failure(.closed) }
        if let new { records[id] = new }
        guard let record = records[id] else { return .failure(.notFound) }
        guard runs[id] == nil else { return .failure(.alreadyRunning) }
        lastRun += 1
        runs[id] = (lastRun, nil)
        return .success((record, lastRun))
    }

    /// Keeps `task` as run `run`'s; `false` when that run has ended.
    mutating func keep(_ task: any NetworkTask, for id: UUID, run: Int) -> Bool {
        guard runs[id]?.number == run else { return false }
        runs[id]?.task = task
        return true
    }

    /// Ends run `run`, unless another has begun since.
    mutating func end(_ id: UUID, run: Int) {
        if runs[id]?.number == run { runs[id] = nil }
    }
}
