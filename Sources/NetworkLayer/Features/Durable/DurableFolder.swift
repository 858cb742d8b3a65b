import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A folder of durable records, one file per record, each written whole or not at all.
///
/// Why one file per record rather than an append-only log: a record is written to a temporary file and
/// renamed over its name, so a crash mid-write leaves only a temporary file (removed when the folder is
/// opened again) and never touches another record; removing a record is one `unlink`, so nothing removed
/// can come back, and there is no log to compact or to replay. The cost, a file system call or three per
/// record, is small next to a network request. Names sort in the order the caller wants records read.
///
/// Not thread-safe: its owner calls it from one serial queue. Only one owner at a time: see
/// ``DurableFolderLock``.
package final class DurableFolder: Sendable {
    /// The folder.
    package let url: URL
    private static let temporarySuffix = ".tmp"
    /// Test hook: the bytes every later write may still put on disk before it fails as on a full disk.
    package let writeBudget = Locked<Int?>(nil)

    /// Opens (and creates) the folder; removes temporary files a crashed writer left.
    ///
    /// - Parameter url: The folder.
    package init(url: URL) throws(DurableWriteError) {
        self.url = url
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw DurableWriteError(code: (error as NSError).code, reason: "\(error)", file: url)
        }
        for name in fileNames() where name.hasSuffix(Self.temporarySuffix) {
            unlink(url.appendingPathComponent(name).path)
        }
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
        let record = DurableRecord.encode(payload, contentVersion: contentVersion)
        let temporary = url.appendingPathComponent("\(name).\(UUID().uuidString)\(Self.temporarySuffix)")
        do throws(DurableWriteError) {
            try writeNew(record, to: temporary, flushToDevice: flushToDevice)
            guard renameFile(temporary.path, url.appendingPathComponent(name).path) == 0 else {
                throw DurableWriteError(errno: errno, file: temporary)
            }
        } catch {
            unlink(temporary.path)
            throw error
        }
        if flushToDevice { synchronizeFolder() }
    }

    /// Reads the record `name`.
    ///
    /// - Parameter name: The file's name in the folder.
    /// - Returns: The content version and payload; `nil` when the file is gone.
    /// - Throws: What makes the file no whole record.
    package func read(_ name: String) throws(DurableRecordDamage) -> (contentVersion: UInt16, payload: Data)?
    {
        guard let bytes = FileManager.default.contents(atPath: url.appendingPathComponent(name).path) else {
            return nil
        }
        return try DurableRecord.decode(bytes)
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
        _ = renameFile(url.appendingPathComponent(name).path, url.appendingPathComponent(newName).path)
    }

    private func writeNew(_ record: Data, to file: URL, flushToDevice: Bool) throws(DurableWriteError) {
        // 0600: the record holds request bodies, which may be private.
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw DurableWriteError(errno: errno, file: file) }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            let budget = writeBudget.withLock { $0 }
            if let budget, budget < record.count {
                try handle.write(contentsOf: record.prefix(max(0, budget)))
                throw DurableWriteError(errno: ENOSPC, file: file)
            }
            try handle.write(contentsOf: record)
            if flushToDevice { try synchronize(descriptor) }
            try handle.close()
        } catch let error as DurableWriteError {
            throw error
        } catch {
            throw DurableWriteError(code: (error as NSError).code, reason: "\(error)", file: file)
        }
    }

    /// Waits until the file's bytes are on the device: `F_FULLFSYNC` where there is one, else `fsync`.
    private func synchronize(_ descriptor: Int32) throws(DurableWriteError) {
        if fullySynchronize(descriptor) { return }
        guard fsync(descriptor) == 0 else { throw DurableWriteError(errno: errno, file: url) }
    }

    /// The platform fact: on Apple systems `fsync` only reaches the drive's cache and `F_FULLFSYNC` flushes
    /// the device; Linux has no `F_FULLFSYNC` (`fsync` reaches the device). `false` when it didn't flush.
    private func fullySynchronize(_ descriptor: Int32) -> Bool {
        #if canImport(Darwin) || NETWORKLAYER_APPLE_BRANCHES
            return fcntl(descriptor, F_FULLFSYNC) == 0
        #else
            return false
        #endif
    }

    /// Makes the renames in the folder durable; a failure only weakens the flush, so it is not reported.
    private func synchronizeFolder() {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
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

// At file scope the unqualified name is the C library's on every platform, not the method above.
private func renameFile(_ from: String, _ to: String) -> Int32 {
    rename(from, to)
}
