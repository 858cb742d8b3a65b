import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One accepted connection's place among a listener's ``LoopbackLimits/maxConnections``: whether it waits
/// for a request (and since when), so a newcomer at the limit can take the place of the one idle longest.
///
/// A connection is idle from its accept until bytes of a request come, and again once its server marks it
/// idle between requests. Only an idle connection is evicted: closing one is what every HTTP/1.1 client
/// expects of a server (the race with a request just sent is the one an idle timeout has, and a browser
/// retries it), whereas cutting a request being read or answered, or a tab's live stream, breaks it.
///
/// Invariant for `@unchecked Sendable`: `idleSince` and `evicted` are read and written only with `lock`
/// held; the descriptor is shut down (never closed) here, and only while its connection's thread still
/// owns it, which is why the listener evicts only slots it still counts.
package final class ConnectionSlot: @unchecked Sendable {
    private let fd: Int32
    private let lock = NSLock()
    private var idleSince: Date?
    private var evicted = false

    /// The place of the connection on `fd`, idle from now.
    init(fd: Int32) {
        self.fd = fd
        idleSince = Date()
    }

    /// The connection waits for its next request.
    package func markIdle() {
        lock.withLock { idleSince = idleSince ?? Date() }
    }

    /// Bytes of a request came: the connection is no longer idle.
    package func markBusy() {
        lock.withLock { idleSince = nil }
    }

    /// Since when the connection waits for a request; `nil` while it is busy.
    var waitingSince: Date? { lock.withLock { evicted ? nil : idleSince } }

    /// Shuts the connection down if it is still idle, which wakes its thread to end it; whether it did.
    func evictIfIdle() -> Bool {
        lock.withLock {
            guard idleSince != nil, !evicted else { return false }
            evicted = true
            _ = shutdown(fd, Int32(SHUT_RDWR))
            return true
        }
    }
}
