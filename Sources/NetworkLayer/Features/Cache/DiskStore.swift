import Foundation

/// One file per entry, written to a temporary file and renamed into place, so any reader sees a whole
/// entry or none. The directory is the index (several caches or processes may share it, and its size is
/// measured on disk, so the capacity survives a crash); no lock: the file system orders renames.
final class DiskStore: Sendable {
    let directory: URL
    let capacity: Int
    static let entrySuffix = ".entry"
    private static let temporarySuffix = ".tmp"
    /// A temporary file older than this was left by a crash, not by a writer still at work.
    private static let abandonedAfter: TimeInterval = 600

    init(directory: URL, capacity: Int) {
        self.directory = directory
        self.capacity = max(0, capacity)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    private func fileURL(_ key: CacheKey) -> URL {
        directory.appendingPathComponent(key.fileName + Self.entrySuffix)
    }

    func entry(for key: CacheKey) -> CachedResponse? {
        let url = fileURL(key)
        guard let data = try? Data(contentsOf: url) else { return nil }
        guard let entry = CacheEntryCoding.decode(data), entry.key == key else {
            try? FileManager.default.removeItem(at: url)
            return nil
        }
        touch(key)
        return entry
    }

    /// Writes the entry, then evicts to the capacity. A failure (full disk) just leaves it unstored.
    func store(_ entry: CachedResponse) {
        guard let data = CacheEntryCoding.encode(entry), data.count <= capacity else {
            remove(entry.key)
            return
        }
        // The writer's PID first: a later cache can tell a crashed writer's file from a live one's.
        let temporary = directory.appendingPathComponent(
            "\(getpid())-\(UUID().uuidString)\(Self.temporarySuffix)")
        var written = (try? data.write(to: temporary)) != nil
        if !written {
            // The directory may have been removed (caches cleared): made again once, or the cache would
            // stay off for the rest of the process.
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            written = (try? data.write(to: temporary)) != nil
        }
        guard written, rename(temporary.path, fileURL(entry.key).path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            return
        }
        evict()
    }

    func remove(_ key: CacheKey) {
        try? FileManager.default.removeItem(at: fileURL(key))
    }

    /// Marks the entry as just used: the modification date is the least-recently-used order, shared with
    /// every process.
    func touch(_ key: CacheKey) {
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: fileURL(key).path)
    }

    /// Removes temporary files left by writers that are gone (a crash before the rename). Another
    /// process's file stays while it runs (or for ``abandonedAfter`` if that can't be checked).
    func removeAbandonedTemporaryFiles(among all: [File]? = nil) {
        let now = Date()
        let ownID = getpid()
        for file in all ?? files() where file.isTemporary {
            let writer = file.name.split(separator: "-", maxSplits: 1).first.flatMap { pid_t($0) }
            let abandoned: Bool
            if let writer, writer != ownID, writer > 0 {
                abandoned = kill(writer, 0) != 0 && errno == ESRCH
            } else {
                abandoned = writer == nil && now.timeIntervalSince(file.modified) > Self.abandonedAfter
            }
            if abandoned { try? FileManager.default.removeItem(at: file.url) }
        }
    }

    /// Removes the files whose names match, temporary ones included.
    func removeAll(where matches: (String) -> Bool = { _ in true }) {
        for file in files() where matches(file.name) { try? FileManager.default.removeItem(at: file.url) }
    }

    var currentUsage: Int { files().filter { !$0.isTemporary }.reduce(0) { $0 + $1.size } }

    struct File {
        var url: URL
        var name: String
        var size: Int
        var modified: Date
        var isTemporary: Bool
    }

    private func files() -> [File] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        let urls =
            (try? FileManager.default.contentsOfDirectory(
                at: directory, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])) ?? []
        return urls.compactMap { url in
            let name = url.lastPathComponent
            let isTemporary = name.hasSuffix(Self.temporarySuffix)
            guard isTemporary || name.hasSuffix(Self.entrySuffix),
                let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true
            else { return nil }
            return File(
                url: url, name: name, size: values.fileSize ?? 0,
                modified: values.contentModificationDate ?? .distantPast, isTemporary: isTemporary)
        }
    }

    /// Evicts the least recently used entries to the capacity, and crashed writers' temporary files.
    private func evict() {
        let all = files()
        removeAbandonedTemporaryFiles(among: all)
        var entries = all.filter { !$0.isTemporary }
        var usage = entries.reduce(0) { $0 + $1.size }
        guard usage > capacity else { return }
        entries.sort { $0.modified < $1.modified }
        for file in entries {
            guard usage > capacity else { break }
            try? FileManager.default.removeItem(at: file.url)
            usage -= file.size
        }
    }
}
