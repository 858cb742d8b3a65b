import Foundation

/// The roots of the library's queue tree (<doc:ErrorsAndThreading#Which-queue-owns-what>); no other file
/// names a global queue.
/// Why serial roots for blocking work (the delegate queues, the disk): on Linux a concurrent queue gets
/// only as many threads as cores, so blocking there would starve the short hops.
enum Queues {
    /// Short hops off the delegate and caller queues (decoding, disk-cache lookups, completions, off-queue
    /// cancels); the policy and monitors' queues target it.
    static let work = DispatchQueue(
        label: "NetworkLayer.work", attributes: .concurrent, target: DispatchQueue.global(qos: .userInitiated)
    )

    /// Every disk write and removal: a download's partial file, a disk cache's entries, an upload's
    /// temporary file. Serial: each user keeps its own order through a serial queue that targets it. Code
    /// running on it (a download's completion does) must never `sync` onto one of those queues: it would
    /// wait for itself.
    static let disk = reserved(DispatchQueue(label: "NetworkLayer.disk", qos: .utility), as: .disk)

    /// A root per session: it blocks on libcurl by design (``BackPressureQueue``), so it shares no thread.
    static func sessionDelegate() -> DispatchQueue {
        reserved(DispatchQueue(label: "NetworkLayer.SessionTransport.delegate"), as: .sessionDelegate)
    }

    /// A layer's monitors' queue (``MonitorGroup``): serial, so a monitor that several requests share
    /// hears their events one at a time; one per layer, made with the layer whether or not it has monitors.
    static func monitors() -> DispatchQueue {
        DispatchQueue(label: "NetworkLayer.monitors", target: work)
    }

    /// A clock's timer queue (``SystemClock``), a root of its own per clock: a deadline must fire on time
    /// however busy the work queue is.
    static func clock() -> DispatchQueue {
        DispatchQueue(label: "NetworkLayer.clock")
    }

    /// Whether the current code runs on a root that never runs the caller's code (a session's delegate
    /// queue, the disk queue) or on a queue that targets one: a call that delivers immediately leaves it
    /// for ``work`` before it decodes or calls an interceptor.
    static var isReserved: Bool { DispatchQueue.getSpecific(key: reservedKey) != nil }

    /// Whether the current code runs on a session's delegate queue. Why a key, not
    /// `OperationQueue.current`: that is `nil` in blocks that don't run as operations.
    static var isSessionDelegate: Bool { DispatchQueue.getSpecific(key: reservedKey) == .sessionDelegate }

    private enum Reserved { case sessionDelegate, disk }

    private static let reservedKey = DispatchSpecificKey<Reserved>()

    private static func reserved(_ queue: DispatchQueue, as kind: Reserved) -> DispatchQueue {
        queue.setSpecific(key: reservedKey, value: kind)
        return queue
    }
}
