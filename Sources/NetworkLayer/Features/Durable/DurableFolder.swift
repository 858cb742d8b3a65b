import Foundation

/// A folder of durable records, one file per record, each written whole or not at all: the one on-disk
/// layer of the outbox, the transfer store, the cache and (by its static methods) a partial download's
/// `.partial.json`.
///
/// Why one file per record rather than an append-only log: a record is written to a temporary file and
/// renamed over its name, so a crash mid-write leaves only a temporary file (removed by
/// ``removeAbandonedTemporaryFiles()``) and never touches another record; removing a record is one
/// `unlink`, so nothing removed can come back, and there is no log to compact or to replay. The cost, a
/// file system call or three per record, is small next to a network request. Names sort in the order the
/// caller wants records read.
///
/// Not thread-safe: its owner calls it from one serial queue. One owner at a time (see
/// ``DurableFolderLock``), or, for a cache shared by processes, none: the file system orders renames.
package final class DurableFolder: Sendable {
    /// The folder.
    package let url: URL
    /// The key records are authenticated with (HMAC-SHA256), or `nil` for a plain SHA-256.
    private let key: [UInt8]?
    /// Whether the owner holds the folder's ``DurableFolderLock``: then no one else writes here.
    private let claimed: Bool
    /// Test hook: the bytes every later write may still put on disk before it fails as on a full disk.
    package let writeBudget = Locked<Int?>(nil)
    static let temporarySuffix = ".tmp"
    /// A temporary file whose name doesn't say its writer, older than this, was left by a crash.
    private static let abandonedAfter: TimeInterval = 600

    /// Opens the folder, creating it readable by the user only, and, when claimed, removes the temporary
    /// files crashed writers left.
    ///
    /// - Parameters:
    ///   - url: The folder.
    ///   - key: A secret kept outside the folder that authenticates its records; `nil` checksums them.
    ///   - claim: The folder's lock, held by the caller: proof that no one else writes here, so every
    ///     temporary file is abandoned. `nil` for a folder shared by several writers (the cache).
    package init(url: URL, key: Data? = nil, claim: DurableFolderLock? = nil) {
        self.url = url
        self.key = key.map { Array($0) }
        claimed = claim != nil
        // A failure shows at the first write, as the system's reason.
        try? Self.create(url)
        if claimed { removeAbandonedTemporaryFiles() }
    }

    /// Creates `url` and its parents, and makes it readable by the user only (0700, an existing one too):
    /// its records hold request bodies, file paths and replies.
    static func create(_ url: URL) throws(DurableWriteError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw DurableWriteError(code: (error as NSError).code, reason: "\(error)", file: url)
        }
        _ = chmod(url.path, 0o700)
    }

    /// The names of the files in the folder ending with `suffix`, sorted.
    ///
    /// - Parameter suffix: How the names end, such as `.item`.
    /// - Returns: The names, in ascending order.
    package func names(endingWith suffix: String) -> [String] {
        fileNames().filter { $0.hasSuffix(suffix) }.sorted()
    }

    private func fileNames() -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
    }

    /// Writes `payload` as the record `name`, replacing one there: it is in the operating system's hands
    /// (it survives the process being killed) when this returns, on the device too with `flushToDevice`.
    ///
    /// - Parameters:
    ///   - payload: The caller's bytes.
    ///   - contentVersion: The payload's schema version.
    ///   - name: The file's name in the folder.
    ///   - flushToDevice: Whether to wait for the device too (survives a power loss), at a cost.
    /// - Throws: ``DurableWriteError`` when the write fails (a full disk); nothing half-written is left.
    package func write(_ payload: Data, contentVersion: UInt16, as name: String, flushToDevice: Bool)
        throws(DurableWriteError)
    {
        let file = url.appendingPathComponent(name)
        do throws(DurableWriteError) {
            try Self.write(
                payload, contentVersion: contentVersion, key: key, to: file, flushToDevice: flushToDevice,
                budget: writeBudget.withLock { $0 })
        } catch let error where error.code == Int(ENOENT) {
            // The folder was removed (a cache cleared): made again once, or it would stay off for good.
            try Self.create(url)
            try Self.write(
                payload, contentVersion: contentVersion, key: key, to: file, flushToDevice: flushToDevice)
        }
        if flushToDevice { synchronizeFolder() }
    }

    /// Writes a record to `file` through a temporary file beside it, renamed over it; the temporary file
    /// is named for this process, so ``removeAbandonedTemporaryFiles()`` tells a crashed writer's apart.
    static func write(
        _ payload: Data, contentVersion: UInt16, key: [UInt8]?, to file: URL, flushToDevice: Bool,
        budget: Int? = nil
    ) throws(DurableWriteError) {
        let record = DurableRecord.encode(payload, contentVersion: contentVersion, key: key)
        let temporary = URL(
            fileURLWithPath: "\(file.path).\(getpid())-\(UUID().uuidString)\(temporarySuffix)")
        do throws(DurableWriteError) {
            try writeNew(record, to: temporary, flushToDevice: flushToDevice, budget: budget)
            guard POSIX.renameFile(temporary.path, file.path) else {
                throw DurableWriteError(errno: errno, file: temporary)
            }
        } catch {
            unlink(temporary.path)
            throw error
        }
    }

    private static func writeNew(_ record: Data, to file: URL, flushToDevice: Bool, budget: Int?)
        throws(DurableWriteError)
    {
        // 0600: the record holds request bodies, which may be private.
        let descriptor = POSIX.openFile(file.path, O_WRONLY | O_CREAT | O_EXCL)
        guard descriptor >= 0 else { throw DurableWriteError(errno: errno, file: file) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            if let budget, budget < record.count {
                try handle.write(contentsOf: record.prefix(max(0, budget)))
                throw DurableWriteError(errno: ENOSPC, file: file)
            }
            try handle.write(contentsOf: record)
            if flushToDevice, !POSIX.synchronize(descriptor) {
                throw DurableWriteError(errno: errno, file: file)
            }
            try handle.close()
        } catch let error as DurableWriteError {
            throw error
        } catch {
            throw DurableWriteError(code: (error as NSError).code, reason: "\(error)", file: file)
        }
    }

    /// Reads the record `name`, unless its file is larger than a record of `maximumSize` payload bytes:
    /// that one is reported without being read.
    ///
    /// - Parameters:
    ///   - name: The file's name in the folder.
    ///   - maximumSize: The most payload bytes the owner ever writes in one record.
    /// - Returns: The content version and payload; `nil` when the file is gone.
    /// - Throws: What makes the file no whole record of this folder.
    package func read(_ name: String, maximumSize: Int) throws(DurableRecordDamage) -> (
        contentVersion: UInt16, payload: Data
    )? {
        try Self.read(url.appendingPathComponent(name), key: key, maximumSize: maximumSize)
    }

    /// Reads the record in `file`, written under `key`, as ``read(_:maximumSize:)`` does.
    static func read(_ file: URL, key: [UInt8]?, maximumSize: Int) throws(DurableRecordDamage) -> (
        contentVersion: UInt16, payload: Data
    )? {
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        guard let size = (attributes?[.size] as? NSNumber)?.intValue else { return nil }
        guard size <= maximumSize + DurableRecord.overhead else { throw .tooLarge }
        guard let bytes = FileManager.default.contents(atPath: file.path) else { return nil }
        return try DurableRecord.decode(bytes, key: key)
    }

    /// The records named `*suffix` that decode as `Record`. A file that is no whole record of this folder
    /// (cut, forged without the key, larger than `maximumSize`), holds no `Record`, or isn't under the name
    /// its record gives (a copy, which nothing would ever remove) is renamed `*.damaged`; one of a newer
    /// content version is left, unread, for the version that wrote it.
    ///
    /// - Parameters:
    ///   - type: The records' type, stored as JSON.
    ///   - suffix: How their names end, such as `.item`.
    ///   - version: The newest content version this code reads.
    ///   - maximumSize: The most payload bytes the owner ever writes in one record.
    ///   - fileName: The name a record is written under.
    /// - Returns: The records, in name order, and the files that held none: set aside, or newer.
    package func load<Record: Decodable>(
        _ type: Record.Type, named suffix: String, version: UInt16, maximumSize: Int,
        fileName: (Record) -> String
    ) -> (records: [Record], damaged: [URL]) {
        var records: [Record] = []
        var damaged: [URL] = []
        for name in names(endingWith: suffix) {
            do {
                guard let stored = try read(name, maximumSize: maximumSize) else { continue }
                guard stored.contentVersion <= version else {
                    damaged.append(url.appendingPathComponent(name))
                    continue
                }
                let record = try JSONDecoder().decode(Record.self, from: stored.payload)
                guard fileName(record) == name else { throw DurableRecordDamage.misnamed }
                records.append(record)
            } catch {
                rename(name, to: name + ".damaged")
                damaged.append(url.appendingPathComponent(name + ".damaged"))
            }
        }
        return (records, damaged)
    }

    /// Removes the record `name`; removing one that is gone does nothing.
    ///
    /// - Parameter name: The file's name in the folder.
    package func remove(_ name: String) {
        unlink(url.appendingPathComponent(name).path)
    }

    /// Renames the file `name` to `newName`, keeping its bytes (a damaged record set aside).
    ///
    /// - Parameters:
    ///   - name: The file's name in the folder.
    ///   - newName: Its new name.
    package func rename(_ name: String, to newName: String) {
        _ = POSIX.renameFile(url.appendingPathComponent(name).path, url.appendingPathComponent(newName).path)
    }

    /// Removes the temporary files of writers that are gone (a crash before the rename): in a claimed
    /// folder every one; else those whose process has ended, or, when the name doesn't say (a file of
    /// an older version), those older than ten minutes. A live writer's file stays.
    func removeAbandonedTemporaryFiles() {
        let own = getpid()
        for name in fileNames() where name.hasSuffix(Self.temporarySuffix) {
            let file = url.appendingPathComponent(name)
            var abandoned = claimed
            if !abandoned, let writer = Self.writer(of: name), writer > 0 {
                abandoned = writer != own && kill(writer, 0) != 0 && errno == ESRCH
            } else if !abandoned {
                let modified = try? FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate]
                abandoned =
                    (modified as? Date).map { -$0.timeIntervalSinceNow > Self.abandonedAfter } ?? false
            }
            if abandoned { unlink(file.path) }
        }
    }

    /// The process that wrote the temporary file `<name>.<pid>-<UUID>.tmp` (or `<pid>-<UUID>.tmp`).
    private static func writer(of name: String) -> pid_t? {
        let stem = name.dropLast(temporarySuffix.count)
        let last = stem.split(separator: ".").last ?? stem
        return last.split(separator: "-", maxSplits: 1).first.flatMap { pid_t($0) }
    }

    /// Makes the renames in the folder durable; a failure only weakens the flush, so it is not reported.
    private func synchronizeFolder() {
        let descriptor = POSIX.openFile(url.path, O_RDONLY)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        POSIX.closeFile(descriptor)
    }
}

/// A durable write that failed, with the system's reason; nothing of it was left on disk.
package struct DurableWriteError: Error, Sendable {
    /// The system's error code, such as `ENOSPC` for a full disk.
    package let code: Int
    /// The reason, as text.
    package let reason: String

    init(code: Int, reason: String, file: URL) {
        self.code = code
        self.reason = "\(file.lastPathComponent): \(reason)"
    }

    init(errno code: Int32, file: URL) {
        self.init(code: Int(code), reason: String(cString: strerror(code)), file: file)
    }
}
