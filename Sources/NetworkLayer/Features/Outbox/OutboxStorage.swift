import Foundation

/// Where an ``Outbox`` keeps its items: a folder of durable records (``OutboxDiskStorage``), or memory
/// for a presenter's test. Called only on the outbox's queue.
package protocol OutboxStorage: Sendable {
    /// The stored items, in queue order, the files that held no readable item (set aside), and the
    /// sequence after every one stored, readable or not (so none is written over).
    func load() -> OutboxContents
    /// Stores `item`, replacing its earlier state, whole or not at all.
    func save(_ item: OutboxItem, flushToDevice: Bool) throws(OutboxError)
    /// Forgets `item`; it is never loaded again.
    func remove(_ item: OutboxItem)
    /// Lets another outbox open the same storage.
    func close()
}

/// What an ``OutboxStorage`` holds when an outbox opens it, as a storage found it: the readable items, in
/// queue order; the files that held no readable item; a sequence above every stored one.
package typealias OutboxContents = (items: [OutboxItem], damaged: [URL], nextSequence: UInt64)

/// An outbox's items on disk: one durable record per item, named by its sequence so the folder lists
/// them in queue order, as JSON (its version is the record's content version).
///
/// The folder `<directory>/<name>.outbox` holds `*.item` records, a `lock` file held while an outbox
/// uses it, and `*.damaged` files: records that could not be read, set aside for inspection.
final class OutboxDiskStorage: OutboxStorage {
    private static let itemSuffix = ".item"
    /// The item layout this code writes; it reads this one and every earlier one.
    static let itemVersion: UInt16 = 1
    let folder: DurableFolder
    /// The most bytes an item's record holds: a file larger than that was not written by this outbox.
    private let largestItem: Int
    /// Held until closed: no other outbox, in any process, writes the folder meanwhile.
    private let lock: DurableFolderLock

    /// Claims and opens the folder. `maximumSize` is the outbox's: an item's JSON (its body in Base64, the
    /// rest escaped) takes at most twice that, and 8 MiB more leaves room for a dead letter's reply (64 KiB
    /// of it is kept), up to the 4 GiB a record holds. `recordKey` authenticates the
    /// items (see ``OutboxOptions/recordKey``).
    init(
        directory: URL, name: String, maximumSize: Int = OutboxOptions().maximumSize, recordKey: Data? = nil
    ) throws(OutboxError) {
        let url = directory.appendingPathComponent(name + ".outbox", isDirectory: true)
        largestItem = Self.recordLimit(forMaximumSize: maximumSize)
        (lock, folder) = try DurableFolder.claim(
            url, key: recordKey, inUse: OutboxError.inUse, failed: OutboxError.writeFailed)
    }

    func load() -> OutboxContents {
        // An item numbered above the bound would sort after every item enqueued from now on, though read
        // before them: no name is its own, so it is set aside, as no item of this outbox's.
        let loaded = folder.load(
            OutboxItem.self, named: Self.itemSuffix, version: Self.itemVersion, maximumSize: largestItem
        ) { $0.sequence > DurableFolder.largestSequence ? "" : Self.fileName($0) }
        // Already in queue order: each item is under the name its sequence gives, and those sort as numbers.
        return (loaded.records, loaded.damaged, folder.lastSequence() + 1)
    }

    /// The most bytes an item's record holds, for an outbox of `maximumSize` (`Int.max` included: the
    /// arithmetic saturates at the 4 GiB a record's length field holds).
    static func recordLimit(forMaximumSize maximumSize: Int) -> Int {
        let limit = Int(clamping: UInt32.max)
        let (twice, overflow) = max(0, maximumSize).multipliedReportingOverflow(by: 2)
        let reply = 8 * 1024 * 1024
        return overflow || twice > limit - reply ? limit : twice + reply
    }

    func save(_ item: OutboxItem, flushToDevice: Bool) throws(OutboxError) {
        do {
            let payload = try JSONEncoder().encode(item)
            try folder.write(
                payload, contentVersion: Self.itemVersion, as: Self.fileName(item),
                flushToDevice: flushToDevice)
        } catch let error as DurableWriteError {
            throw .writeFailed(error.reason)
        } catch {
            throw .encodingFailed(error)
        }
    }

    func remove(_ item: OutboxItem) {
        folder.remove(Self.fileName(item))
    }

    func close() {
        lock.release()
    }

    /// Zero-padded, so names sort as sequences do.
    private static func fileName(_ item: OutboxItem) -> String {
        String(format: "%020llu", item.sequence) + itemSuffix
    }
}
