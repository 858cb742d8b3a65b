import Foundation

/// One durable record per entry in a ``DurableFolder``, so any reader sees a whole entry or none. The
/// directory is the index (several caches or processes may share it, and its size is measured on disk,
/// so the capacity survives a crash); no lock: the file system orders renames. Writes don't wait for the
/// device: a cache can be rebuilt from the network, and an entry a power loss cut fails its checksum and
/// is a miss.
final class DiskStore: Sendable {
    let folder: DurableFolder
    let capacity: Int
    /// Orders disk reads, writes and removals: an invalidation is never undone by an older write.
    let queue = DispatchQueue(label: "NetworkLayer.ResponseCache.disk", target: Queues.disk)
    /// The reasons for keeping replies off this disk its cache has told a monitor of, each once.
    let toldReasons = Locked(Set<ResponseCache.MemoryOnlyReason>())
    static let entrySuffix = ".entry"

    init(directory: URL, capacity: Int) {
        folder = DurableFolder(url: directory)
        self.capacity = max(0, capacity)
        queue.async { [folder] in folder.removeAbandonedTemporaryFiles() }
    }

    private func fileName(_ key: CacheKey) -> String {
        key.fileName + Self.entrySuffix
    }

    func entry(for key: CacheKey) -> CachedResponse? {
        let name = fileName(key)
        let read = Result { () throws(DurableRecordDamage) in try folder.read(name, maximumSize: capacity) }
        if case .success(nil) = read { return nil }
        guard case .success(let stored?) = read, let entry = CacheEntryCoding.decode(stored), entry.key == key
        else {
            folder.remove(name)
            return nil
        }
        touch(key)
        return entry
    }

    /// Writes the entry, then evicts to the capacity. A failure (full disk) just leaves it unstored.
    func store(_ entry: CachedResponse) {
        guard let payload = CacheEntryCoding.encode(entry), payload.count + DurableRecord.overhead <= capacity
        else {
            remove(entry.key)
            return
        }
        // Not flushed to the device: a cache can be rebuilt from the network.
        let written: Void? = try? folder.write(
            payload, contentVersion: CacheEntryCoding.version, as: fileName(entry.key), flushToDevice: false)
        if written != nil { evict() }
    }

    func remove(_ key: CacheKey) {
        folder.remove(fileName(key))
    }

    /// Marks the entry as just used: the modification date is the least-recently-used order, shared with
    /// every process.
    func touch(_ key: CacheKey) {
        try? FileManager.default.setAttributes(
            [.modificationDate: Date()], ofItemAtPath: folder.url.appendingPathComponent(fileName(key)).path)
    }

    /// Removes the files whose names match, temporary ones included.
    func removeAll(where matches: (String) -> Bool = { _ in true }) {
        for file in files() where matches(file.name) { try? FileManager.default.removeItem(at: file.url) }
    }

    var currentUsage: Int { files().filter { !$0.isTemporary }.reduce(0) { $0 + $1.size } }

    typealias File = (url: URL, name: String, size: Int, modified: Date, isTemporary: Bool)

    private func files() -> [File] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        let urls =
            (try? FileManager.default.contentsOfDirectory(
                at: folder.url, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])) ?? []
        return urls.compactMap { url in
            let name = url.lastPathComponent
            // Only the library's own temporary files: a user's `notes.tmp` is neither counted nor removed.
            let isTemporary = DurableFolder.temporaryWriter(of: name) != nil
            guard isTemporary || name.hasSuffix(Self.entrySuffix),
                let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true
            else { return nil }
            return (
                url, name, values.fileSize ?? 0, values.contentModificationDate ?? .distantPast, isTemporary
            )
        }
    }

    /// Evicts the least recently used entries to the capacity, and crashed writers' temporary files.
    private func evict() {
        let all = files()
        if all.contains(where: \.isTemporary) { folder.removeAbandonedTemporaryFiles() }
        let entries = all.filter { !$0.isTemporary }
        var usage = entries.reduce(0) { $0 + $1.size }
        guard usage > capacity else { return }
        for file in entries.sorted(by: { $0.modified < $1.modified }) {
            guard usage > capacity else { break }
            try? FileManager.default.removeItem(at: file.url)
            usage -= file.size
        }
    }
}
