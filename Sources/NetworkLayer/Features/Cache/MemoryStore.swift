import Foundation

/// The in-memory entries, least recently used evicted first past the capacity. Uses are stamped by a
/// clock and `byUse` finds an entry by stamp, so eviction walks stamps upward: O(1) amortised.
/// Why: a scan per store cost a full cache about a quarter of its miss throughput; see <doc:Performance>.
final class MemoryStore: Sendable {
    private struct State {
        let capacity: Int
        var entries: [CacheKey: (entry: CachedResponse, lastUse: UInt64)] = [:]
        var byUse: [UInt64: CacheKey] = [:]
        /// Every stamp below this one is gone from `byUse`.
        var oldestUse: UInt64 = 1
        var clock: UInt64 = 0
        var usage = 0
        /// Counts requested removals: an entry read from disk before one isn't brought back after it.
        var generation: UInt64 = 0
        /// Keys used since the disk last heard of their use: one disk pass marks them all.
        var untoldUses: Set<CacheKey> = []

        mutating func remove(_ key: CacheKey) {
            guard let old = entries.removeValue(forKey: key) else { return }
            usage -= old.entry.cost
            byUse[old.lastUse] = nil
        }

        mutating func stamp(_ key: CacheKey, _ entry: CachedResponse) {
            if let old = entries[key] { byUse[old.lastUse] = nil }
            clock += 1
            entries[key] = (entry, clock)
            byUse[clock] = key
        }

        /// Stores an entry that costs `cost`, unless a removal came since `ifGeneration`, then evicts the
        /// least recently used past `capacity`.
        mutating func store(_ entry: CachedResponse, key: CacheKey, cost: Int, ifGeneration: UInt64?) {
            guard ifGeneration == nil || ifGeneration == generation else { return }
            remove(key)
            guard cost <= capacity else { return }
            stamp(key, entry)
            usage += cost
            while usage > capacity, oldestUse <= clock {
                if let oldest = byUse[oldestUse] { remove(oldest) }
                oldestUse += 1
            }
        }
    }

    private let state: Locked<State>

    init(capacity: Int) {
        state = Locked(State(capacity: max(0, capacity)))
    }

    var currentUsage: Int { state.withLock { $0.usage } }

    var isEmpty: Bool { state.withLock { $0.entries.isEmpty } }

    /// The entry for `key`, marked as used; with `toldToDisk`, the use is also kept for ``takeUses()``,
    /// and `startsPass` says whether it is the first kept since the last take.
    func entry(for key: CacheKey, toldToDisk: Bool) -> (entry: CachedResponse, startsPass: Bool)? {
        state.withLock { state in
            guard let found = state.entries[key] else { return nil }
            state.stamp(key, found.entry)
            let startsPass = toldToDisk && state.untoldUses.isEmpty
            if toldToDisk { state.untoldUses.insert(key) }
            return (found.entry, startsPass)
        }
    }

    /// The keys used since the last call (see ``entry(for:toldToDisk:)``).
    func takeUses() -> Set<CacheKey> {
        state.withLock { state in
            defer { state.untoldUses = [] }
            return state.untoldUses
        }
    }

    /// The removals so far; read before a disk lookup whose entry is then stored with `ifGeneration`.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// Stores an entry, unless a removal came since `generation` was read: that removal may have deleted
    /// the file this entry was read from.
    func store(_ entry: CachedResponse, ifGeneration generation: UInt64? = nil) {
        // Each computed once, outside the lock.
        let (key, cost) = (entry.key, entry.cost)
        state.withLock { $0.store(entry, key: key, cost: cost, ifGeneration: generation) }
    }

    func remove(_ key: CacheKey) {
        state.withLock { state in
            state.generation &+= 1
            state.remove(key)
        }
    }

    func removeAll(where matches: (CacheKey) -> Bool = { _ in true }) {
        state.withLock { state in
            state.generation &+= 1
            for key in state.entries.keys where matches(key) { state.remove(key) }
        }
    }
}
