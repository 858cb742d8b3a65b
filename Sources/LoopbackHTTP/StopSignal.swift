import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Wakes every thread of one running server when it stops.
///
/// A pipe: `trigger()` writes one byte and nobody ever reads it, so the read end stays
/// readable for good and every `poll` that includes it returns at once, now and later.
/// Every blocking point of the server (accept, read, write, delays) polls this
/// descriptor too, which is what makes `stop()` prompt.
package final class StopSignal: @unchecked Sendable {
    // Invariant: both descriptors are set once in `init` and closed only by `close()`,
    // which the owner calls after every thread using this signal has finished.
    private let readFD: Int32
    private let writeFD: Int32

    /// What a wait ended with.
    package enum WaitResult {
        case ready
        case timedOut
        case stopped
    }

    package init() throws(LoopbackError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw LoopbackError(operation: "pipe", code: errno) }
        readFD = fds[0]
        writeFD = fds[1]
        SocketIO.setCloseOnExec(readFD)
        SocketIO.setCloseOnExec(writeFD)
    }

    /// Wakes all waiters, now and in the future. Call once.
    package func trigger() {
        var byte: UInt8 = 1
        _ = write(writeFD, &byte, 1)
    }

    /// Closes the pipe. Call only when no thread can use the signal any more.
    package func close() {
        SocketIO.closeDescriptor(readFD)
        SocketIO.closeDescriptor(writeFD)
    }

    /// Waits until `fd` reports one of `events`, the signal fires, or `timeout` passes
    /// (`nil`: no limit). The stop signal wins when both are ready.
    package func wait(for fd: Int32, events: Int16, timeout: TimeInterval? = nil) -> WaitResult {
        var watched = fd >= 0 ? [pollfd(fd: fd, events: events, revents: 0)] : []
        // NaN would trap converting to milliseconds below: it means no wait at all.
        return wait(for: &watched, until: timeout.map { Date(timeIntervalSinceNow: $0.isNaN ? 0 : $0) })
    }

    /// Waits until one of `watched` reports an event, the signal fires, or `deadline` passes (`nil`: no
    /// limit). After `.ready`, each entry's `revents` says what happened to it.
    package func wait(forAny watched: inout [pollfd], until deadline: Date? = nil) -> WaitResult {
        wait(for: &watched, until: deadline)
    }

    private func wait(for watched: inout [pollfd], until deadline: Date?) -> WaitResult {
        while true {
            var milliseconds: Int32 = -1
            if let deadline {
                let left = deadline.timeIntervalSinceNow
                if left <= 0 { return .timedOut }
                milliseconds = Int32(min(left * 1000, 60_000).rounded(.up))
            }
            var fds = [pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)] + watched
            let count = poll(&fds, nfds_t(fds.count), milliseconds)
            if count < 0 {
                if errno == EINTR { continue }
                return .stopped
            }
            if fds[0].revents != 0 { return .stopped }
            watched = Array(fds.dropFirst())
            if watched.contains(where: { $0.revents != 0 }) { return .ready }
        }
    }

    /// Whether the signal has fired, without waiting.
    package var hasFired: Bool {
        var fds = [pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)]
        return poll(&fds, 1, 0) > 0 && fds[0].revents != 0
    }

    /// Sleeps for `seconds`; returns `false` if the server stopped meanwhile.
    package func sleep(_ seconds: TimeInterval) -> Bool {
        wait(for: -1, events: 0, timeout: seconds) != .stopped
    }
}
