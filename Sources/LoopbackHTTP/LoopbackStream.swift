import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The writer of one streamed reply (server-sent events, say), that ``LoopbackResponder/open(status:headers:onClose:)``
/// returns. ``send(_:)`` never blocks: it queues the bytes and the connection's thread writes them as fast as
/// the peer reads. The queue holds at most ``LoopbackLimits/maxQueuedBytes``: a peer that stops reading costs
/// no more memory than that, and what does not fit is dropped, whole, and reported.
///
/// Invariant for `@unchecked Sendable`: every variable is read and written only with `lock` held; the wake
/// pipe is written only while the stream is open, and closed only after it is marked closed.
package final class LoopbackStream: @unchecked Sendable {
    private let lock = NSLock()
    private let capacity: Int
    private let onClose: (@Sendable () -> Void)?
    /// Bytes not yet written, from `start`.
    private var buffer: [UInt8] = []
    private var start = 0
    private var finishing = false
    private var closed = false
    private var wakePending = false
    private var wakeFDs: (read: Int32, write: Int32)?

    /// A stream whose queue holds at most `capacity` bytes; `onClose` runs once, on the connection's thread,
    /// when the connection ends.
    init(capacity: Int, onClose: (@Sendable () -> Void)?) {
        self.capacity = capacity
        self.onClose = onClose
        var fds: [Int32] = [0, 0]
        if pipe(&fds) == 0 {
            for fd in fds {
                SocketIO.setCloseOnExec(fd)
                SocketIO.setNonBlocking(fd)
            }
            wakeFDs = (fds[0], fds[1])
        } else {
            closed = true  // Out of descriptors: nothing can be sent.
        }
    }

    /// Queues `data` to be written to the peer, whole or not at all: `false` when it does not fit in the
    /// queue (the peer reads slower than the stream is fed) or the connection has closed, and nothing was
    /// queued. Never blocks on the peer.
    ///
    /// - Parameter data: The bytes, e.g. one complete server-sent event.
    /// - Returns: Whether the bytes were queued.
    @discardableResult
    package func send(_ data: Data) -> Bool {
        lock.withLock {
            guard !closed, !finishing, buffer.count - start + data.count <= capacity else { return false }
            if start > 0, start >= buffer.count / 2 {
                buffer.removeSubrange(0..<start)
                start = 0
            }
            buffer += data
            wake()
            return true
        }
    }

    /// Ends the reply once the bytes already queued are written, and closes the connection.
    package func finish() {
        lock.withLock {
            finishing = true
            wake()
        }
    }

    /// Whether the connection has closed: the peer went away, the reply finished, or the server stopped.
    package var isClosed: Bool { lock.withLock { closed } }

    /// How many bytes are queued and not yet handed to the socket.
    package var queuedByteCount: Int { lock.withLock { buffer.count - start } }

    /// Wakes the connection's thread, once until it next looks. Call with `lock` held.
    private func wake() {
        guard !wakePending, let wakeFDs else { return }
        wakePending = true
        var byte: UInt8 = 1
        _ = write(wakeFDs.write, &byte, 1)
    }
}

// The connection's side: only its thread calls these.
extension LoopbackStream {
    /// The descriptor that turns readable when there is something new to write; -1 once closed.
    var wakeFD: Int32 { lock.withLock { wakeFDs?.read ?? -1 } }

    /// Up to `limit` of the queued bytes, copied out, and whether the reply ends after them.
    func pending(limit: Int = 64 * 1024) -> (bytes: ArraySlice<UInt8>, finishing: Bool) {
        lock.withLock {
            let end = min(buffer.count, start + limit)
            return (ArraySlice(buffer[start..<end]), finishing)
        }
    }

    /// Takes `count` written bytes off the queue.
    func consume(_ count: Int) {
        lock.withLock { start += count }
    }

    /// Empties the wake pipe: the next `send` writes to it again.
    func drainWake() {
        guard let fd = lock.withLock({ wakeFDs?.read }) else { return }
        var scratch = [UInt8](repeating: 0, count: 64)
        while read(fd, &scratch, scratch.count) > 0 {}
        // Cleared only once the pipe is empty: a send's byte written while it was read must not be eaten
        // with the flag already down, or every later send would skip its wake and the pump sleep on data.
        lock.withLock { wakePending = false }
    }

    /// Marks the stream closed, frees the queue and the pipe, and tells `onClose`.
    func markClosed() {
        let fds: (read: Int32, write: Int32)? = lock.withLock {
            closed = true
            buffer = []
            start = 0
            defer { wakeFDs = nil }
            return wakeFDs
        }
        if let fds {
            SocketIO.closeDescriptor(fds.read)
            SocketIO.closeDescriptor(fds.write)
        }
        onClose?()
    }
}
