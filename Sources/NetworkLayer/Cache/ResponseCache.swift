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
public final class ResponseCache: Sendable {
    let memory: MemoryStore
    let disk: DiskStore?
    /// Orders this cache's disk reads, writes and removals, so an invalidation is never undone by an older
    /// write, and a lookup never reads a file a background removal is about to delete.
    private let diskQueue = DispatchQueue(label: "NetworkLayer.ResponseCache.disk", qos: .utility)
    /// Identical requests in flight, sharing one send.
    let flights = InFlightRequests<(TransferResult, CacheStatus)>()

    /// A cache with these capacities.
    ///
    /// - Parameters:
    ///   - memoryCapacity: Bytes of replies kept in memory.
    ///   - diskCapacity: Bytes of replies kept in `directory`; ignored without one.
    ///   - directory: Where replies are stored on disk, created if missing; `nil` keeps them in memory only.
    ///     Several caches, in one process or several, may share a directory.
    public init(memoryCapacity: Int = 4 * 1024 * 1024, diskCapacity: Int = 0, directory: URL? = nil) {
        memory = MemoryStore(capacity: memoryCapacity)
        disk = directory.flatMap { diskCapacity > 0 ? DiskStore(directory: $0, capacity: diskCapacity) : nil }
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

    /// The stored reply for a request, if one matches its URL, credential and `Vary` headers.
    ///
    /// - Parameters:
    ///   - request: The request's fields as sent, the cookies the session adds included.
    ///   - ownFields: The request's fields without those cookies, when the session adds any: a reply not
    ///     marked `private` is stored for these (see ``store(statusCode:headers:body:url:request:ownFields:requestTime:responseTime:inBackground:)``).
    func entry(for url: URL, request: HeaderFields, ownFields: HeaderFields? = nil) -> CachedResponse? {
        let credential = Fingerprint.credential(of: request)
        if let found = entry(for: CacheKey(url: url, credential: credential), request: request) {
            return found
        }
        guard let ownFields, Fingerprint.credential(of: ownFields) != credential,
            let shared = entry(
                for: CacheKey(url: url, credential: Fingerprint.credential(of: ownFields)), request: request),
            !CacheControl(shared.fields["Cache-Control"]).isPrivate
        else { return nil }
        return shared
    }

    private func entry(for key: CacheKey, request: HeaderFields) -> CachedResponse? {
        var found = memory.entry(for: key)
        if found == nil, let disk {
            // Read before the disk: a removal after it may delete the file this lookup reads.
            let generation = memory.generation
            // On the disk's queue, behind every write and removal handed to it before: a reply stored
            // or removed in the background is then on disk as it should be when this lookup reads.
            if let stored = diskQueue.sync(execute: { disk.entry(for: key) }) {
                memory.store(stored, ifGeneration: generation)
                found = stored
            }
        }
        guard let found, CacheRules.varyMatches(found, request: request) else { return nil }
        return found
    }

    /// Stores a reply if RFC 9111 allows it; otherwise removes any older reply it replaces.
    ///
    /// A reply marked `private` is stored for the credentials the request was sent with, the cookies
    /// the session added included, and served to none other. Any other reply is stored for `ownFields`'
    /// credentials (the request's own fields): the session's cookies don't make it one user's, and a
    /// cookie re-issued by every reply (a load balancer's) would otherwise make every request a miss. A
    /// reply that depends on the cookie says so with `Vary: Cookie`, which matches against `request`.
    func store(
        statusCode: Int, headers: [String: String], body: Data, url: URL, request: HeaderFields,
        ownFields: HeaderFields? = nil, requestTime: Date, responseTime: Date, inBackground: Bool = false
    ) {
        let response = HeaderFields(headers)
        let isPrivate = CacheControl(response["Cache-Control"]).isPrivate
        let credential = Fingerprint.credential(of: isPrivate ? request : ownFields ?? request)
        guard CacheRules.canStore(method: "GET", statusCode: statusCode, request: request, response: response)
        else {
            let key = CacheKey(url: url, credential: credential)
            if inBackground { removeInBackground(key) } else { remove(key) }
            return
        }
        let kept = CacheRules.storedHeaders(headers)
        let entry = CachedResponse(
            url: url, statusCode: statusCode, headers: kept, body: body, requestTime: requestTime,
            responseTime: responseTime, varying: CacheRules.varying(request: request, response: response),
            credential: credential)
        if inBackground { storeInBackground(entry) } else { store(entry) }
    }

    /// Removes the replies stored for `url` and this request's credentials (with and without the
    /// session's cookies), if any, as ``removeInBackground(_:)`` does.
    func removeResponseInBackground(for url: URL, request: HeaderFields, ownFields: HeaderFields? = nil) {
        removeInBackground(CacheKey(url: url, credential: Fingerprint.credential(of: request)))
        if let ownFields {
            removeInBackground(CacheKey(url: url, credential: Fingerprint.credential(of: ownFields)))
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
        disk?.store(entry)
    }

    /// Stores in memory now and on disk in the background: the caller is the session's delegate queue,
    /// which every other request waits on.
    func storeInBackground(_ entry: CachedResponse) {
        memory.store(entry)
        if let disk { diskQueue.async { disk.store(entry) } }
    }

    func remove(_ key: CacheKey) {
        memory.remove(key)
        guard let disk else { return }
        diskQueue.sync { disk.remove(key) }
        memory.remove(key)
    }
}
