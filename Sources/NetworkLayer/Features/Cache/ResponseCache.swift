import Foundation

/// The layer's HTTP cache (RFC 9111, private): a memory store and an optional disk store, the same on
/// every platform. It replaces `URLCache`, which the layer's sessions never use.
///
/// ```swift
/// let directory = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
///     .appendingPathComponent("api-cache")
/// let cache = ResponseCache(memoryCapacity: 4_000_000, diskCapacity: 50_000_000, directory: directory)
/// let network = NetworkLayer(baseURL: URL(string: "https://api.example.com")!, cache: cache)
/// ```
///
/// Only bodiless `GET` replies are stored. A corrupt disk entry is a miss, a failed write leaves the reply
/// unstored; neither fails a request. Disk writes are asynchronous: ``flush(completion:)`` waits for them.
public final class ResponseCache: Sendable {
    let memory: MemoryStore
    let disk: DiskStore?
    let keying: CacheKeying

    /// A cache with these capacities.
    ///
    /// - Parameters:
    ///   - memoryCapacity: Bytes of replies kept in memory.
    ///   - diskCapacity: Bytes of replies kept in `directory`; ignored without one.
    ///   - directory: Where replies are stored on disk: a folder of the cache's own, such as a subfolder
    ///     of Caches, created if missing, readable by the user only (an existing one keeps its
    ///     permissions, and files the cache didn't write stay); `nil` keeps them in memory only.
    ///     Several caches, in one process or several, may share a directory.
    ///   - fingerprintKey: A secret kept outside `directory` (the Keychain, say), 32 random bytes per
    ///     installation, keying the credential fingerprints in the files. Without it, replies stored for
    ///     credentials (not an account) stay in memory only. See <doc:CachingAndOffline>.
    public init(
        memoryCapacity: Int = 4 * 1024 * 1024, diskCapacity: Int = 0, directory: URL? = nil,
        fingerprintKey: Data? = nil
    ) {
        memory = MemoryStore(capacity: memoryCapacity)
        disk = directory.flatMap { diskCapacity > 0 ? DiskStore(directory: $0, capacity: diskCapacity) : nil }
        keying = CacheKeying(appKey: fingerprintKey)
    }

    /// Calls `completion` once every write and removal handed to the disk so far is done.
    ///
    /// - Parameter completion: Called on a background queue; for a cache without a directory, at once
    ///   on the caller's thread.
    public func flush(completion: @escaping @Sendable () -> Void) {
        guard let disk else { return completion() }
        disk.queue.async { Queues.work.async(execute: completion) }
    }

    /// Returns once every write and removal handed to the disk so far is done.
    public func flush() async {
        await withCheckedContinuation { done in flush { done.resume() } }
    }

    /// Removes every reply stored for an account (see ``NetworkRequest/account``), as at sign-out.
    ///
    /// - Parameter account: The account's name.
    public func removeAll(forAccount account: String) {
        let partition = keying.partition(account: account, request: [:])
        let suffix = "-\(partition.tag)\(DiskStore.entrySuffix)"
        remove(
            inBackground: true, memory: { $0.removeAll(where: { key in key.partition == partition }) },
            disk: { $0.removeAll(where: { name in name.hasSuffix(suffix) }) })
    }

    /// Removes every stored reply, from memory and from disk.
    public func removeAll() {
        remove(memory: { $0.removeAll() }, disk: { $0.removeAll() })
    }

    /// Removes the stored replies for a URL, for every credential they were stored for.
    ///
    /// - Parameter url: The request URL the replies were stored for (its fragment is ignored).
    public func removeResponses(for url: URL) {
        removeResponses(for: url, inBackground: false)
    }

    func removeResponses(for url: URL, inBackground: Bool) {
        let (normalized, prefix) = (CacheKey.normalized(url), CacheKey.filePrefix(for: url))
        remove(
            inBackground: inBackground, memory: { $0.removeAll(where: { key in key.url == normalized }) },
            disk: { $0.removeAll(where: { name in name.hasPrefix(prefix) }) })
    }

    /// Bytes of replies held in memory.
    public var currentMemoryUsage: Int { memory.currentUsage }

    /// Bytes of replies on disk, other caches sharing the directory included; 0 without a directory.
    public var currentDiskUsage: Int { disk?.currentUsage ?? 0 }

    /// The background revalidations under way (`stale-while-revalidate`), one per stored reply: callers
    /// served that reply meanwhile join it instead of sending their own.
    let revalidations = InFlightRequests<CacheKey, Void>()

    /// A request as the cache keys it: `headers` as the server receives them, `ownFields` without the
    /// session's cookies (what a reply not marked `private` is stored for), the account it is for, and
    /// its layer's list of credential headers (it decides the partition and which `Vary` values are
    /// credentials).
    struct Lookup: Sendable {
        let url: URL
        let headers: HeaderFields
        var ownFields: HeaderFields? = nil
        var account: String? = nil
        var credentials = CredentialHeaderNames()

        /// Without an account, `own` is the partition of `ownFields` (no session cookies), where a reply
        /// not marked `private` is stored.
        func partitions(_ keying: CacheKeying) -> (CachePartition, own: CachePartition?) {
            let partition = keying.partition(account: account, request: headers)
            guard account == nil, let ownFields else { return (partition, nil) }
            let own = keying.partition(account: nil, request: ownFields)
            return (partition, own == partition ? nil : own)
        }
    }

    /// The stored reply for a request. An empty cache answers nothing at once: one test, before any key
    /// is made.
    func entry(for lookup: Lookup) -> CachedResponse? {
        guard disk != nil || !memory.isEmpty else { return nil }
        let keying = keying.scoped(to: lookup.credentials)
        let (partition, own) = lookup.partitions(keying)
        func stored(in partition: CachePartition) -> CachedResponse? {
            entry(
                for: CacheKey(url: lookup.url, partition: partition), request: lookup.headers, keying: keying)
        }
        // Stored without the session's cookies, a reply answers unless it is `private`.
        return stored(in: partition)
            ?? own.flatMap(stored(in:)).flatMap { $0.fields.cacheControl?.isPrivate == true ? nil : $0 }
    }

    private func entry(for key: CacheKey, request: HeaderFields, keying: CacheKeying) -> CachedResponse? {
        let disk = disk.flatMap { keying.memoryOnlyReason(key) == nil ? $0 : nil }
        let inMemory = memory.entry(for: key, toldToDisk: disk != nil)
        var found = inMemory?.entry
        if let disk, inMemory?.startsPass == true {
            // A memory hit counts for the disk's least-recently-used order too.
            disk.queue.async { [memory] in
                for key in memory.takeUses() { disk.touch(key) }
            }
        } else if let disk, found == nil {
            // Read before the disk: a removal after it may delete the file this lookup reads.
            let generation = memory.generation
            found = disk.queue.sync { disk.entry(for: key) }
            if let found { memory.store(found, ifGeneration: generation) }
        }
        guard let found, CacheRules.varyMatches(found, request: request, keying: keying) else { return nil }
        return found
    }

    /// Stores a reply if RFC 9111 allows it; otherwise removes any older reply it replaces.
    ///
    /// A `private` reply is stored for the request's credentials with the session's cookies; any other
    /// for `ownFields`' credentials, or a re-issued cookie (a load balancer's) would make every request a
    /// miss (`Vary: Cookie` still matches). An `account` names the partition outright.
    func store(
        statusCode: Int, headers: [String: String], body: Data, for lookup: Lookup, requestTime: Date,
        responseTime: Date, inBackground: Bool = false, reportingMemoryOnly report: MemoryOnlyReport? = nil
    ) {
        let (keying, request) = (keying.scoped(to: lookup.credentials), lookup.headers)
        let response = HeaderFields(headers)
        let partition = keying.partition(
            account: lookup.account,
            request: response.cacheControl?.isPrivate == true ? request : lookup.ownFields ?? request)
        guard CacheRules.canStore(method: "GET", statusCode: statusCode, request: request, response: response)
        else { return remove(CacheKey(url: lookup.url, partition: partition), inBackground: inBackground) }
        let entry = CachedResponse(
            url: lookup.url, statusCode: statusCode, headers: CacheRules.storedHeaders(headers), body: body,
            requestTime: requestTime, responseTime: responseTime,
            varying: CacheRules.varying(
                request: request, response: response, partition: partition, keying: keying),
            partition: partition)
        store(entry, credentials: lookup.credentials, inBackground: inBackground, reportingMemoryOnly: report)
    }

    /// Told why a reply stays off the disk until a monitor heard it (see
    /// ``NetworkMonitor/didKeepInMemoryOnly(_:because:)``): the report calls `claim` once the warning reaches
    /// monitors still listening, and tells them only if it returns `true` (the first to claim the reason).
    typealias MemoryOnlyReport =
        @Sendable (
            _ reason: MemoryOnlyReason, _ claim: @escaping @Sendable () -> Bool
        ) -> Void

    /// Removes the replies stored for `url` in this request's partitions, in the background.
    func removeResponseInBackground(for lookup: Lookup) {
        let (partition, own) = lookup.partitions(keying.scoped(to: lookup.credentials))
        for partition in [partition, own].compactMap({ $0 }) {
            remove(CacheKey(url: lookup.url, partition: partition), inBackground: true)
        }
    }

    /// Stores in memory, then on disk: in the background when the caller is the delegate queue, which
    /// every other request waits on. A reply a disk cache keeps in memory only is reported to `report`,
    /// once per reason for the cache's life: an app that loses its offline replies hears why, once. Only
    /// a request someone watches, and whose monitors still listen, uses the report up: a layer without
    /// monitors, or a request that finished (a shared request storing for a caller who cancelled), leaves
    /// it to the next.
    func store(
        _ entry: CachedResponse, credentials: CredentialHeaderNames = CredentialHeaderNames(),
        inBackground: Bool = false, reportingMemoryOnly report: MemoryOnlyReport? = nil
    ) {
        memory.store(entry)
        guard let disk else { return }
        let reason = keying.scoped(to: credentials).memoryOnlyReason(entry.key, varying: entry.varying)
        if let reason, let report, !disk.toldReasons.withLock({ $0.contains(reason) }) {
            report(reason) { disk.toldReasons.withLock { $0.insert(reason).inserted } }
        }
        onDisk(inBackground: inBackground) { reason == nil ? $0.store(entry) : $0.remove(entry.key) }
    }

    func remove(_ key: CacheKey, inBackground: Bool = false) {
        remove(inBackground: inBackground, memory: { $0.remove(key) }, disk: { $0.remove(key) })
    }

    /// Removes from memory, from disk, then from memory again: a lookup that read a file before it went
    /// may have brought it back meanwhile.
    private func remove(
        inBackground: Bool = false, memory removeFromMemory: @escaping @Sendable (MemoryStore) -> Void,
        disk removeFromDisk: @escaping @Sendable (DiskStore) -> Void
    ) {
        removeFromMemory(memory)
        onDisk(inBackground: inBackground) { [memory] disk in
            removeFromDisk(disk)
            removeFromMemory(memory)
        }
    }

    /// Behind every earlier write and removal on the disk queue.
    private func onDisk(inBackground: Bool, _ work: @escaping @Sendable (DiskStore) -> Void) {
        guard let disk else { return }
        if inBackground { disk.queue.async { work(disk) } } else { disk.queue.sync { work(disk) } }
    }
}
