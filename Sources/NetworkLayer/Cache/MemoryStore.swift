import Foundation

/// The in-memory entries, least recently used evicted first once their cost exceeds the capacity.
final class MemoryStore: @unchecked Sendable {
    private let capacity: Int
    // Guarded by `lock`; the lock is never held while anything else runs.
    private let lock = NSLock()
    private var entries: [CacheKey: (entry: CachedResponse, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0
    private var usage = 0

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var currentUsage: Int { lock.withLock { usage } }

    func entry(for key: CacheKey) -> CachedResponse? {
        lock.withLock {
            guard let found = entries[key] else { return nil }
            clock += 1
            entries[key] = (found.entry, clock)
            return found.entry
        }
    }

    func store(_ entry: CachedResponse) {
        let cost = entry.cost
        lock.withLock {
            removeLocked(entry.key)
            guard cost <= capacity else { return }
            clock += 1
            entries[entry.key] = (entry, clock)
            usage += cost
            while usage > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                removeLocked(oldest.key)
            }
        }
    }

    func remove(_ key: CacheKey) {
        lock.withLock { removeLocked(key) }
    }

    func removeAll(url: String) {
        lock.withLock {
            for key in entries.keys where key.url == url { removeLocked(key) }
        }
    }

    func removeAll() {
        lock.withLock {
            entries.removeAll()
            usage = 0
        }
    }

    private func removeLocked(_ key: CacheKey) {
        if let old = entries.removeValue(forKey: key) { usage -= old.entry.cost }
    }
}
