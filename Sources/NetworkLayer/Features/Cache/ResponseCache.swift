import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

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
/// Only replies to `GET` requests without a body are stored. A corrupt or truncated disk entry is a miss
/// and is removed; a failed write (a full disk) leaves the reply unstored; neither fails a request.
/// Writes to disk are asynchronous: ``flush(completion:)`` waits for them.
public final class ResponseCache: Sendable {
    let memory: MemoryStore
    let disk: DiskStore?
    /// The keys of the fingerprints that key entries, and so which entries may go to disk.
    let keying: CacheKeying
    /// Orders this cache's disk reads, writes and removals, so an invalidation is never undone by an older
    /// write, and a lookup never reads a file a background removal is about to delete.
    let diskQueue = DispatchQueue(label: "NetworkLayer.ResponseCache.disk", target: Queues.disk)
    /// Entries read from memory whose files are still to be marked as used; one pass on the disk queue
    /// marks them all, so a hot entry costs one file update per pass, not one per read.
    private let pendingTouches = Locked<Set<CacheKey>>([])
    /// Identical requests in flight, sharing one send.
    let flights = InFlightRequests<TransferResult>()

    /// A cache with these capacities.
    ///
    /// - Parameters:
    ///   - memoryCapacity: Bytes of replies kept in memory.
    ///   - diskCapacity: Bytes of replies kept in `directory`; ignored without one.
    ///   - directory: Where replies are stored on disk, created if missing; `nil` keeps them in memory only.
    ///     Several caches, in one process or several, may share a directory.
    ///   - fingerprintKey: A secret kept outside `directory` (in the Keychain, say), 32 random bytes made
    ///     once per installation, that keys the fingerprints of credentials in the cache's files. With
    ///     it, replies stored for the credentials a request carried (rather than for an account) are
    ///     kept on disk and found after a relaunch; without it they stay in memory. See
    ///     <doc:CachingAndOffline>.
    public init(
        memoryCapacity: Int = 4 * 1024 * 1024, diskCapacity: Int = 0, directory: URL? = nil,
        fingerprintKey: Data? = nil
    ) {
        memory = MemoryStore(capacity: memoryCapacity)
        disk = directory.flatMap { diskCapacity > 0 ? DiskStore(directory: $0, capacity: diskCapacity) : nil }
        keying = CacheKeying(appKey: fingerprintKey)
        if let disk { diskQueue.async { disk.removeAbandonedTemporaryFiles() } }
    }

    /// Calls `completion` once every write and removal handed to the disk so far is done: before an app
    /// is suspended, say. At once for a cache without a directory.
    ///
    /// - Parameter completion: Called on a background queue; for a cache without a directory, at once
    ///   on the caller's thread.
    public func flush(completion: @escaping @Sendable () -> Void) {
        guard disk != nil else { return completion() }
        diskQueue.async { Queues.work.async(execute: completion) }
    }

    /// Returns once every write and removal handed to the disk so far is done: before an app is
    /// suspended, say.
    public func flush() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            flush { done.resume() }
        }
    }

    /// Removes every reply stored for an account (see ``NetworkRequest/account``): when its user signs
    /// out. Memory is cleared at once, the disk in the background, before any later lookup reads it.
    ///
    /// - Parameter account: The account's name.
    public func removeAll(forAccount account: String) {
        let partition = keying.partition(account: account, request: [:])
        memory.removeAll(partition: partition)
        guard let disk else { return }
        diskQueue.async { [memory] in
            disk.removeAll(partition: partition)
            // A lookup that read a file before it was deleted may have brought it back meanwhile.
            memory.removeAll(partition: partition)
        }
    }

    /// Removes every stored reply, from memory and from disk.
    public func removeAll() {
        memory.removeAll()
        guard let disk else { return }
        diskQueue.sync { disk.removeAll() }
        // A lookup that read a file before it was deleted may have brought it back meanwhile.
        memory.removeAll()
    }

    /// Removes the stored replies for a URL, for every credential they were stored for.
    ///
    /// - Parameter url: The request URL the replies were stored for (its fragment is ignored).
    public func removeResponses(for url: URL) {
        let normalized = CacheKey.normalized(url)
        memory.removeAll(url: normalized)
        guard let disk else { return }
        diskQueue.sync { disk.removeAll(prefix: CacheKey.filePrefix(for: url)) }
        // A lookup that read a file before it was deleted may have brought it back meanwhile.
        memory.removeAll(url: normalized)
    }

    /// Bytes of replies held in memory.
    public var currentMemoryUsage: Int { memory.currentUsage }

    /// Bytes of replies held on disk, measured on the disk (so including other caches sharing the
    /// directory); 0 without a directory.
    public var currentDiskUsage: Int { disk?.currentUsage ?? 0 }

    /// The stored reply for a request, if one matches its URL, partition and `Vary` headers.
    ///
    /// - Parameters:
    ///   - request: The request's fields as sent, the cookies the session adds included.
    ///   - ownFields: The request's fields without those cookies, when the session adds any: a reply not
    ///     marked `private` is stored for these (see ``store(statusCode:headers:body:url:request:ownFields:account:requestTime:responseTime:inBackground:)``).
    ///   - account: The account the request is for: its partition, whatever credentials it carries.
    func entry(
        for url: URL, request: HeaderFields, ownFields: HeaderFields? = nil, account: String? = nil
    ) -> CachedResponse? {
        let partition = keying.partition(account: account, request: request)
        if let found = entry(for: CacheKey(url: url, partition: partition), request: request) {
            return found
        }
        guard account == nil, let ownFields else { return nil }
        let own = keying.partition(account: nil, request: ownFields)
        guard own != partition, let shared = entry(for: CacheKey(url: url, partition: own), request: request),
            !CacheControl(shared.fields["Cache-Control"]).isPrivate
        else { return nil }
        return shared
    }

    private func entry(for key: CacheKey, request: HeaderFields) -> CachedResponse? {
        var found = memory.entry(for: key)
        if found != nil, let disk, keying.mayBeOnDisk(key) {
            touchInBackground(key, on: disk)
        } else if found == nil, let disk, keying.mayBeOnDisk(key) {
            // Read before the disk: a removal after it may delete the file this lookup reads.
            let generation = memory.generation
            // On the disk's queue, behind every write and removal handed to it before: a reply stored
            // or removed in the background is then on disk as it should be when this lookup reads.
            if let stored = diskQueue.sync(execute: { disk.entry(for: key) }) {
                memory.store(stored, ifGeneration: generation)
                found = stored
            }
        }
        guard let found, CacheRules.varyMatches(found, request: request, keying: keying) else { return nil }
        return found
    }

    /// Marks the file of an entry read from memory as used, so that the disk evicts by every read.
    private func touchInBackground(_ key: CacheKey, on disk: DiskStore) {
        let startsPass = pendingTouches.withLock { pending in
            pending.insert(key)
            return pending.count == 1
        }
        guard startsPass else { return }
        diskQueue.async { [pendingTouches] in
            let keys = pendingTouches.withLock { pending in
                defer { pending = [] }
                return pending
            }
            for key in keys { disk.touch(key) }
        }
    }

    /// Stores a reply if RFC 9111 allows it; otherwise removes any older reply it replaces.
    ///
    /// A reply marked `private` is stored for the credentials the request was sent with, the cookies
    /// the session added included, and served to none other. Any other reply is stored for `ownFields`'
    /// credentials (the request's own fields): the session's cookies don't make it one user's, and a
    /// cookie re-issued by every reply (a load balancer's) would otherwise make every request a miss. A
    /// reply that depends on the cookie says so with `Vary: Cookie`, which matches against `request`.
    /// An `account` names the partition, whatever credentials the request carried.
    func store(
        statusCode: Int, headers: [String: String], body: Data, url: URL, request: HeaderFields,
        ownFields: HeaderFields? = nil, account: String? = nil, requestTime: Date, responseTime: Date,
        inBackground: Bool = false
    ) {
        let response = HeaderFields(headers)
        let isPrivate = CacheControl(response["Cache-Control"]).isPrivate
        let partition = keying.partition(
            account: account, request: isPrivate ? request : ownFields ?? request)
        guard CacheRules.canStore(method: "GET", statusCode: statusCode, request: request, response: response)
        else {
            let key = CacheKey(url: url, partition: partition)
            if inBackground { removeInBackground(key) } else { remove(key) }
            return
        }
        let kept = CacheRules.storedHeaders(headers)
        let entry = CachedResponse(
            url: url, statusCode: statusCode, headers: kept, body: body, requestTime: requestTime,
            responseTime: responseTime,
            varying: CacheRules.varying(
                request: request, response: response, partition: partition, keying: keying),
            partition: partition)
        if inBackground { storeInBackground(entry) } else { store(entry) }
    }

    /// Removes the replies stored for `url` and this request's partition (its account's, or its
    /// credentials' with and without the session's cookies), as ``removeInBackground(_:)`` does.
    func removeResponseInBackground(
        for url: URL, request: HeaderFields, ownFields: HeaderFields? = nil, account: String? = nil
    ) {
        removeInBackground(
            CacheKey(url: url, partition: keying.partition(account: account, request: request)))
        if account == nil, let ownFields {
            removeInBackground(
                CacheKey(url: url, partition: keying.partition(account: nil, request: ownFields)))
        }
    }

    /// Removes an entry from memory now and from disk in the background, as ``storeInBackground(_:)``
    /// stores: the caller is the session's delegate queue. Memory is cleared again once the file is gone,
    /// in case a lookup read it meanwhile.
    func removeInBackground(_ key: CacheKey) {
        memory.remove(key)
        guard let disk else { return }
        diskQueue.async { [memory] in
            disk.remove(key)
            memory.remove(key)
        }
    }

    func store(_ entry: CachedResponse) {
        memory.store(entry)
        guard let disk else { return }
        let writes = keying.mayWrite(entry)
        diskQueue.sync { writes ? disk.store(entry) : disk.remove(entry.key) }
    }

    /// Stores in memory now and on disk in the background: the caller is the session's delegate queue,
    /// which every other request waits on. An entry that may not be written (see ``CacheKeying``)
    /// removes the older file it replaces.
    func storeInBackground(_ entry: CachedResponse) {
        memory.store(entry)
        guard let disk else { return }
        let writes = keying.mayWrite(entry)
        diskQueue.async { writes ? disk.store(entry) : disk.remove(entry.key) }
    }

    func remove(_ key: CacheKey) {
        memory.remove(key)
        guard let disk else { return }
        diskQueue.sync { disk.remove(key) }
        memory.remove(key)
    }
}
