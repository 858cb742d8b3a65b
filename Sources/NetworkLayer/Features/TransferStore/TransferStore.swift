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
/// ``resume(_:ifSourceChanged:progressHandler:successHandler:errorHandler:)`` until ``remove(_:)``.
/// See <doc:DurableTransfers>.
public final class TransferStore: Sendable {
    /// What ``resume(_:ifSourceChanged:progressHandler:successHandler:errorHandler:)`` does with an upload
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
    /// Held while the store lives: no other store, in any process, writes the directory meanwhile.
    private let claim: DurableFolderLock
    /// Writes and removes records, in the order they were asked for; targets the disk queue.
    let queue = DispatchQueue(label: "NetworkLayer.TransferStore", target: Queues.disk)
    /// The records and what runs; never held while the disk is touched or a handler runs.
    let state: Locked<TransferStoreState>
    /// Acknowledged bytes between two rewrites of an upload's record.
    static let rewriteInterval: Int64 = 1 << 20
    private static let suffix = ".transfer"
    /// A record holds paths, a URL and headers: a larger file is no record of this store's.
    private static let largestRecord = 1 << 20

    /// Opens the store in `directory` (creating it) and reads the transfers an earlier process left.
    ///
    /// - Parameters:
    ///   - directory: The store's own directory, such as one in Application Support; made readable by
    ///     the user only.
    ///   - layer: What sends the transfers; its base URL resolves a new transfer's path (a record keeps
    ///     the absolute URL).
    ///   - recordKey: A secret kept outside `directory` (the Keychain, say), 32 random bytes per
    ///     installation, that authenticates the records (HMAC-SHA256): a record not written under it, such
    ///     as one another program put in `directory` to have some file uploaded, is set aside as damaged
    ///     and never resumed. Without it, records are only checksummed. See <doc:DurableTransfers>.
    /// - Throws: ``TransferStoreError/inUse`` when another store (in any process) has the directory;
    ///   ``TransferStoreError/writeFailed(_:)`` when it can't be made.
    public init(directory: URL, layer: NetworkLayer, recordKey: Data? = nil) throws(TransferStoreError) {
        self.directory = directory
        self.layer = layer
        (claim, folder) = try Self.claim(directory, key: recordKey)
        // Above every name in the folder, read or not, so no record is written over.
        let sequences = folder.names(endingWith: "").compactMap { UInt64($0.prefix { $0 != "." }) }
        let records = folder.load(
            TransferRecord.self, named: Self.suffix, version: TransferRecord.version,
            maximumSize: Self.largestRecord, fileName: \.fileName
        ).records
        state = Locked(
            TransferStoreState(
                records: Dictionary(records.map { ($0.id, $0) }) { _, last in last },
                lastSequence: sequences.max() ?? 0))
    }

    /// The transfers not finished, in the order they began: running in this process, or left by an
    /// earlier one (failed, cancelled or killed) to be resumed.
    public var unfinishedTransfers: [StoredTransfer] {
        let records = state.withLock { $0.records.values.sorted { $0.sequence < $1.sequence } }
        // The download's bytes are counted on disk, outside the lock.
        return records.map(Self.transfer)
    }

    /// Forgets `transfer`: cancels it if it runs here, removes its record and, for a download, its
    /// partial file. An upload's bytes on the server are left to the server's own expiry.
    ///
    /// - Parameter transfer: A transfer from ``unfinishedTransfers``.
    public func remove(_ transfer: StoredTransfer) {
        let (record, task) = state.withLock { state in
            defer { state.end(transfer.id) }
            return (state.records.removeValue(forKey: transfer.id), state.tasks[transfer.id])
        }
        task?.cancel()
        guard let record else { return }
        queue.async { [folder] in
            folder.remove(record.fileName)
            if record.kind == .download { PartialDownload(destination: record.fileURL).remove() }
        }
    }

    /// Writes the record `id` as it is now, on the store's queue; one removed meanwhile stays removed.
    func writeRecord(_ id: UUID) {
        queue.async { [self] in
            guard let record = state.withLock({ $0.records[id] }) else { return }
            try? write(record)
        }
    }

    /// Writes `record` on the store's queue, after every write asked for before, and waits.
    func writeNow(_ record: TransferRecord) throws(TransferStoreError) {
        try queue.sync { () -> Result<Void, TransferStoreError> in
            do throws(TransferStoreError) {
                return .success(try write(record))
            } catch {
                return .failure(error)
            }
        }.get()
    }

    private func write(_ record: TransferRecord) throws(TransferStoreError) {
        do {
            let payload = try JSONEncoder().encode(record)
            try folder.write(
                payload, contentVersion: TransferRecord.version, as: record.fileName, flushToDevice: false)
        } catch let error as DurableWriteError {
            throw .writeFailed(error.reason)
        } catch {
            throw .writeFailed("\(error)")
        }
    }

    /// Claims `directory` (creating it), then opens it: the folder is opened after the claim, since
    /// removing a temporary file another owner is writing would lose it.
    private static func claim(_ directory: URL, key: Data?) throws(TransferStoreError) -> (
        DurableFolderLock, DurableFolder
    ) {
        let claim: DurableFolderLock?
        do throws(DurableWriteError) {
            claim = try DurableFolderLock.claim("lock", in: directory)
        } catch {
            throw .writeFailed(error.reason)
        }
        guard let claim else { throw .inUse }
        return (claim, DurableFolder(url: directory, key: key, claim: claim))
    }

    private static func transfer(_ record: TransferRecord) -> StoredTransfer {
        var completed = record.offset
        var expected = record.sourceSize
        if record.kind == .download {
            let partial = PartialDownload(destination: record.fileURL)
            completed =
                (try? FileManager.default.attributesOfItem(atPath: partial.file.path))
                .flatMap { ($0[.size] as? NSNumber)?.int64Value } ?? 0
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
    var tasks: [UUID: any NetworkTask] = [:]
    /// Which start of each running transfer is current: a task returned after its transfer ended (or
    /// started again) is not kept.
    var runs: [UUID: Int] = [:]
    var lastRun = 0

    /// The highest sequence given: never reused, so a record's name is never one being removed.
    private var lastSequence: UInt64

    init(records: [UUID: TransferRecord], lastSequence: UInt64) {
        self.records = records
        self.lastSequence = lastSequence
    }

    mutating func nextSequence() -> UInt64 {
        lastSequence += 1
        return lastSequence
    }

    mutating func begin(_ id: UUID) -> Int {
        lastRun += 1
        runs[id] = lastRun
        return lastRun
    }

    /// Keeps `task` as run `run`'s; `false` when that run has ended.
    mutating func keep(_ task: any NetworkTask, for id: UUID, run: Int) -> Bool {
        guard runs[id] == run else { return false }
        tasks[id] = task
        return true
    }

    /// Ends run `run`, unless another has begun since.
    mutating func end(_ id: UUID, run: Int) {
        if runs[id] == run { end(id) }
    }

    mutating func end(_ id: UUID) {
        runs[id] = nil
        tasks[id] = nil
    }
}
