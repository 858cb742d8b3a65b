import Foundation

/// The in-memory entries, least recently used evicted first once their cost exceeds the capacity.
final class MemoryStore: Sendable {
    private struct State {
        var entries: [CacheKey: (entry: CachedResponse, lastUse: UInt64)] = [:]
        var clock: UInt64 = 0
        var usage = 0

        mutating func remove(_ key: CacheKey) {
            if let old = entries.removeValue(forKey: key) { usage -= old.entry.cost }
        }
    }

    private let capacity: Int
    private let state = Locked(State())

    init(capacity: Int) {
        self.capacity = max(0, capacity)
    }

    var currentUsage: Int { state.withLock { $0.usage } }

    func entry(for key: CacheKey) -> CachedResponse? {
        state.withLock { state in
            guard let found = state.entries[key] else { return nil }
            state.clock += 1
            state.entries[key] = (found.entry, state.clock)
            return found.entry
        }
    }

    func store(_ entry: CachedResponse) {
        let cost = entry.cost
        let key = entry.key
        let capacity = capacity
        state.withLock { state in
            state.remove(key)
            guard cost <= capacity else { return }
            state.clock += 1
            state.entries[key] = (entry, state.clock)
            state.usage += cost
            while state.usage > capacity,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                state.remove(oldest.key)
            }
        }
    }

    func remove(_ key: CacheKey) {
        state.withLock { $0.remove(key) }
    }

    func removeAll(url: String) {
        state.withLock { state in
            for key in state.entries.keys where key.url == url { state.remove(key) }
        }
    }

    func removeAll() {
        state.withLock { $0 = State() }
    }
}
