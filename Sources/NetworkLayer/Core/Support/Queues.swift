import Foundation

/// The roots of the library's queue tree: every queue the library makes is one of these or targets one
/// (see ``ConcurrencyModel``). No other file names a global queue.
///
/// Two kinds of root, because libdispatch on Linux gives a concurrent queue only as many threads as there
/// are cores, while a serial root gets a thread of its own. Work that may block (a session's delegate
/// queue, which waits for libcurl by design; the disk) runs on serial roots, so it can never starve the
/// short hops on the concurrent one, nor be starved by them.
enum Queues {
    /// Short hops off a session's delegate queue and off the caller's: decoding the caller's types, a disk
    /// cache's lookups and completions, a stream's completion, a cancel that must not wait on the delegate
    /// queue. The policy queue and the monitors' queues target it.
    static let work = DispatchQueue(
        label: "NetworkLayer.work", attributes: .concurrent, target: DispatchQueue.global(qos: .userInitiated)
    )

    /// Every disk write and removal: a download's partial file, a disk cache's entries, an upload's
    /// temporary file. Serial: each user keeps its own order through a serial queue that targets it. Code
    /// running on it (a download's completion does) must never `sync` onto one of those queues: it would
    /// wait for itself.
    static let disk = reserved(DispatchQueue(label: "NetworkLayer.disk", qos: .utility))

    /// A new session's delegate queue, a root of its own per session: it blocks on libcurl by design (see
    /// ``BackPressureQueue``), so it shares its thread with nothing.
    static func sessionDelegate() -> DispatchQueue {
        reserved(DispatchQueue(label: "NetworkLayer.SessionTransport.delegate"))
    }

    /// A clock's timer queue (``SystemClock``), a root of its own per clock: a deadline must fire on time
    /// however busy the work queue is.
    static func clock() -> DispatchQueue {
        DispatchQueue(label: "NetworkLayer.clock")
    }

    /// Whether the current code runs on a root that never runs the caller's code (a session's delegate
    /// queue, the disk queue) or on a queue that targets one: a call that delivers immediately leaves it
    /// for ``work`` before it decodes or calls an interceptor.
    static var isReserved: Bool { DispatchQueue.getSpecific(key: reservedKey) == true }

    private static let reservedKey = DispatchSpecificKey<Bool>()

    private static func reserved(_ queue: DispatchQueue) -> DispatchQueue {
        queue.setSpecific(key: reservedKey, value: true)
        return queue
    }
}
