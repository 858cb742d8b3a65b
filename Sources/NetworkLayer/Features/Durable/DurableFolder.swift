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
    /// The shortest key accepted: shorter ones can be guessed. 32 random bytes is what the docs ask for.
    package static let minimumKeyLength = 16
    /// The bytes ``load(_:named:version:maximumSize:maximumTotal:fileName:)`` reads in all unless told.
    static let defaultTotal = 64 * 1024 * 1024

    /// Opens the folder, creating it readable by the user only, and, when claimed, removes the temporary
    /// files crashed writers left.
    ///
    /// - Parameters:
    ///   - url: The folder; an existing one keeps its permissions.
    ///   - key: A secret kept outside the folder that authenticates its records; `nil` checksums them.
    ///     ``claim(_:key:restrictingExisting:inUse:failed:)`` refuses one shorter than ``minimumKeyLength``.
    ///   - claim: The folder's lock, held by the caller: proof that no one else writes here, so every
    ///     temporary file the library names is abandoned. `nil` for a folder shared by several writers
    ///     (the cache).
    package init(url: URL, key: Data? = nil, claim: DurableFolderLock? = nil) {
        self.url = url
        self.key = key.map { Array($0) }
        claimed = claim != nil
        // A failure shows at the first write, as the system's reason.
        try? Self.create(url)
        if claimed { removeAbandonedTemporaryFiles() }
    }

    /// Claims the folder `url` for its one owner (an outbox, a transfer store), then opens it: in that
    /// order, since opening removes the temporary files left in it, and one another owner is writing
    /// would be lost. Each owner throws its own errors.
    ///
    /// - Parameters:
    ///   - url: The folder, created readable by the user only.
    ///   - key: The owner's record key (see ``init(url:key:claim:)``); one shorter than
    ///     ``minimumKeyLength`` is refused, `nil` accepted.
    ///   - restrictingExisting: Whether an existing folder is made readable by the user only too (see
    ///     ``DurableFolderLock/claim(_:in:restrictingExisting:)``).
    ///   - inUse: What to throw when another owner, in any process, holds the folder.
    ///   - failed: What to throw, given the system's reason, when the key is too short or the folder
    ///     can't be made.
    /// - Returns: The claim, held until released, and the folder opened under it.
    package static func claim<Failure: Error>(
        _ url: URL, key: Data?, restrictingExisting: Bool = true, inUse: Failure, failed: (String) -> Failure
    ) throws(Failure) -> (DurableFolderLock, DurableFolder) {
        if let key, key.count < minimumKeyLength {
            let reason =
                "the record key has \(key.count) bytes; it takes at least \(minimumKeyLength) random bytes"
            throw failed(DurableWriteError(code: Int(EINVAL), reason: reason, file: url).reason)
        }
        let claim = try Result { () throws(DurableWriteError) in
            try DurableFolderLock.claim("lock", in: url, restrictingExisting: restrictingExisting)
        }.mapError { failed($0.reason) }.get()
        guard let claim else { throw inUse }
        return (claim, DurableFolder(url: url, key: key, claim: claim))
    }

    /// Creates `url`, readable by the user only (its records hold request bodies, file paths and
    /// replies), and its parents as the system makes folders. An existing folder is left as it is unless
    /// `restrictingExisting` (the library's own folder, which an earlier version made 0755); even then a
    /// symbolic link's target isn't touched: a folder the app named, or a link, is the app's to set.
    static func create(_ url: URL, restrictingExisting: Bool = false) throws(DurableWriteError) {
        let path = url.standardizedFileURL.path
        do {
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        } catch {
            throw DurableWriteError(code: (error as NSError).code, reason: "\(error)", file: url)
        }
        // 0700 from the start: the umask can only take bits away.
        if POSIX.makeFolder(path, 0o700) { return }
        let code = errno
        var isFolder: ObjCBool = false
        guard code == EEXIST, FileManager.default.fileExists(atPath: path, isDirectory: &isFolder),
            isFolder.boolValue
        else { throw DurableWriteError(errno: code == EEXIST ? ENOTDIR : code, file: url) }
        if restrictingExisting { _ = POSIX.restrictFolder(path) }
    }

    /// The names of the files in the folder ending with `suffix`, sorted.
    ///
    /// - Parameter suffix: How the names end, such as `.item`.
    /// - Returns: The names, in ascending order.
    package func names(endingWith suffix: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted()
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
        } catch {
            throw error as? DurableWriteError
                ?? DurableWriteError(code: (error as NSError).code, reason: "\(error)", file: file)
        }
    }

    /// Reads the record `name`, unless its file is larger than a record of `maximumSize` payload bytes or
    /// is no regular file (a symbolic link, a FIFO): that one is reported without being read.
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
        guard let bytes = try bytes(of: file, limit: fileLimit(maximumSize)) else { return nil }
        return try DurableRecord.decode(bytes, key: key)
    }

    /// The most bytes a file holding `maximumSize` payload bytes has; saturating, so `.max` means no limit.
    private static func fileLimit(_ maximumSize: Int) -> Int {
        let (sum, overflow) = max(0, maximumSize).addingReportingOverflow(DurableRecord.overhead)
        return overflow ? .max : sum
    }

    /// The bytes of `file` if it holds at most `limit`: one open, never following a link, so what is
    /// checked is what is read.
    private static func bytes(of file: URL, limit: Int) throws(DurableRecordDamage) -> Data? {
        switch POSIX.readRegularFile(file.path, limit: limit) {
        case .contents(let bytes): return bytes
        case .tooLarge: throw .tooLarge
        case .notARegularFile: throw .notAFile
        // Unreadable is as good as gone: it's left where it is, as a file that vanished would be.
        case .missing, .failed: return nil
        }
    }

    /// The records named `*suffix` that decode as `Record`. A file that is no whole record of this folder
    /// (cut, forged without the key, larger than `maximumSize`, a link), holds no `Record`, or isn't under
    /// the name its record gives (a copy, which nothing would ever remove) is renamed `*.damaged`; one of
    /// a newer content version is left for the version that wrote it. Once the files read hold
    /// `maximumTotal` bytes, each later one is renamed `*.damaged` unread: many files each within the
    /// limit can't fill the memory either.
    ///
    /// - Parameters:
    ///   - type: The records' type, stored as JSON.
    ///   - suffix: How their names end, such as `.item`.
    ///   - version: The newest content version this code reads.
    ///   - maximumSize: The most payload bytes the owner ever writes in one record.
    ///   - maximumTotal: The most bytes of files read in all; `nil`, the default, the larger of one
    ///     record of `maximumSize` and 64 MiB: more than an owner's whole folder ever holds (an outbox's
    ///     items together take no more than one item may).
    ///   - fileName: The name a record is written under.
    /// - Returns: The records, in name order, and the files that held none: set aside, or newer.
    package func load<Record: Decodable>(
        _ type: Record.Type, named suffix: String, version: UInt16, maximumSize: Int,
        maximumTotal: Int? = nil, fileName: (Record) -> String
    ) -> (records: [Record], damaged: [URL]) {
        var records: [Record] = []
        var damaged: [URL] = []
        let limit = Self.fileLimit(maximumSize)
        var remaining = maximumTotal ?? max(limit, Self.defaultTotal)
        for name in names(endingWith: suffix) {
            do {
                let file = url.appendingPathComponent(name)
                guard let bytes = try Self.bytes(of: file, limit: min(limit, remaining)) else { continue }
                remaining -= bytes.count
                let stored = try DurableRecord.decode(bytes, key: key)
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

    /// Removes the temporary files of the library's writers that are gone (a crash before the rename):
    /// in a claimed folder every one; else those whose process has ended. A live writer's file stays, and
    /// so does every file not named as the library names them (a user's `notes.tmp`): nothing released
    /// wrote another form, so a name that doesn't say its writer is someone else's.
    func removeAbandonedTemporaryFiles() {
        let own = getpid()
        for name in names(endingWith: Self.temporarySuffix) {
            guard let writer = Self.temporaryWriter(of: name) else { continue }
            if claimed || (writer != own && kill(writer, 0) != 0 && errno == ESRCH) {
                unlink(url.appendingPathComponent(name).path)
            }
        }
    }

    /// The process that wrote `name`, when it is exactly a temporary file of this library's:
    /// `<record>.<pid>-<UUID>.tmp`, a decimal process id and a UUID; `nil` for any other name.
    ///
    /// - Parameter name: A file's name.
    /// - Returns: The writer's process id, or `nil`.
    static func temporaryWriter(of name: String) -> pid_t? {
        guard name.hasSuffix(temporarySuffix) else { return nil }
        let stem = name.dropLast(temporarySuffix.count)
        guard let dot = stem.lastIndex(of: "."), dot != stem.startIndex else { return nil }
        let tag = stem[stem.index(after: dot)...]
        guard let dash = tag.firstIndex(of: "-") else { return nil }
        let digits = tag[..<dash]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            UUID(uuidString: String(tag[tag.index(after: dash)...])) != nil, let writer = pid_t(digits),
            writer > 0
        else { return nil }
        return writer
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
