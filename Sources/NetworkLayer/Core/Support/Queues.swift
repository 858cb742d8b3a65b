import Foundation

/// The roots of the library's queue tree (see ``ConcurrencyModel``); no other file names a global queue.
/// Why serial roots for blocking work (the delegate queues, the disk): on Linux a concurrent queue gets
/// only as many threads as cores, so blocking there would starve the short hops.
enum Queues {
    /// Short hops off the delegate and caller queues (decoding, disk-cache lookups, completions, off-queue
    /// cancels); the policy and monitors' queues target it.
    static let work = DispatchQueue(
        label: "NetworkLayer.work", attributes: .concurrent, target: DispatchQueue.global(qos: .userInitiated)
    )

    /// Every disk write and removal; each user keeps its order through a serial queue targeting it. Code on
    /// it (a download's completion) must never `sync` onto one of those: it would wait for itself.
    static let disk = DispatchQueue(label: "NetworkLayer.disk", qos: .utility)

    /// A root per session: it blocks on libcurl by design (``BackPressureQueue``), so it shares no thread.
    static func sessionDelegate() -> DispatchQueue {
        DispatchQueue(label: "NetworkLayer.SessionTransport.delegate")
    }

    /// A clock's timer queue (``SystemClock``), a root of its own per clock: a deadline must fire on time
    /// however busy the work queue is.
    static func clock() -> DispatchQueue {
        DispatchQueue(label: "NetworkLayer.clock")
    }
}
