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

/// What an ``OutboxStorage`` holds when an outbox opens it.
package struct OutboxContents: Sendable {
    /// The readable items, in queue order.
    package var items: [OutboxItem]
    /// The files that held no readable item.
    package var damaged: [URL]
    /// A sequence above every stored one.
    package var nextSequence: UInt64

    /// Contents as a storage found them.
    ///
    /// - Parameters:
    ///   - items: The readable items, in queue order.
    ///   - damaged: The files that held no readable item.
    ///   - nextSequence: A sequence above every stored one.
    package init(items: [OutboxItem], damaged: [URL] = [], nextSequence: UInt64) {
        self.items = items
        self.damaged = damaged
        self.nextSequence = nextSequence
    }
}

/// An outbox's items on disk: one durable record per item, named by its sequence so the folder lists
/// them in queue order, as JSON (its version is the record's content version).
///
/// The folder `<directory>/<name>.outbox` holds `*.item` records, a `lock` file held while an outbox
/// uses it, and `*.damaged` files: records that could not be read, set aside for inspection.
final class OutboxDiskStorage: OutboxStorage {
    private static let itemSuffix = ".item"
    private static let damagedSuffix = ".damaged"
    /// The item layout this code writes; it reads this one and every earlier one.
    static let itemVersion: UInt16 = 1
    let folder: DurableFolder
    /// Held until closed: no other outbox, in any process, writes the folder meanwhile.
    private let lock: Locked<DurableFolderLock?>

    init(directory: URL, name: String) throws(OutboxError) {
        let url = directory.appendingPathComponent(name + ".outbox", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            guard let lock = try DurableFolderLock.claim("lock", in: url) else { throw OutboxError.inUse }
            self.lock = Locked(lock)
            // Opened after the claim: removing a temporary file another owner is writing would lose it.
            folder = try DurableFolder(url: url)
        } catch let error as OutboxError {
            throw error
        } catch let error as DurableWriteError {
            throw .writeFailed(error.reason)
        } catch {
            throw .writeFailed("\(error)")
        }
    }

    func load() -> OutboxContents {
        var items: [OutboxItem] = []
        var damaged: [URL] = []
        let decoder = JSONDecoder()
        for name in folder.names(endingWith: Self.itemSuffix) {
            do {
                guard let record = try folder.read(name) else { continue }
                // A newer app's item stays untouched for it; this one can't read it.
                guard record.contentVersion <= Self.itemVersion else {
                    damaged.append(folder.url.appendingPathComponent(name))
                    continue
                }
                items.append(try decoder.decode(OutboxItem.self, from: record.payload))
            } catch {
                folder.rename(name, to: name + Self.damagedSuffix)
                damaged.append(folder.url.appendingPathComponent(name + Self.damagedSuffix))
            }
        }
        let sequences = folder.names(endingWith: "").compactMap { UInt64($0.prefix { $0 != "." }) }
        return OutboxContents(
            items: items.sorted { $0.sequence < $1.sequence }, damaged: damaged,
            nextSequence: (sequences.max() ?? 0) + 1)
    }

    func save(_ item: OutboxItem, flushToDevice: Bool) throws(OutboxError) {
        let payload: Data
        do {
            payload = try JSONEncoder().encode(item)
        } catch {
            throw .encodingFailed(error)
        }
        do {
            try folder.write(
                payload, contentVersion: Self.itemVersion, as: Self.fileName(item),
                flushToDevice: flushToDevice)
        } catch {
            throw .writeFailed(error.reason)
        }
    }

    func remove(_ item: OutboxItem) {
        folder.remove(Self.fileName(item))
    }

    func close() {
        // Released outside the lock: the claim's deinit closes its file.
        let claim = lock.withLock { lock in
            defer { lock = nil }
            return lock
        }
        _ = claim
    }

    /// Zero-padded, so names sort as sequences do.
    private static func fileName(_ item: OutboxItem) -> String {
        let digits = String(item.sequence)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + itemSuffix
    }
}
