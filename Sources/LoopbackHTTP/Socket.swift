import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The BSD socket calls a loopback server needs, portable between Glibc and Darwin.
package enum SocketIO {
    /// A listening TCP socket on 127.0.0.1 with a port the system chose.
    static func makeLoopbackListener() throws(LoopbackError) -> (fd: Int32, port: Int) {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw LoopbackError(operation: "socket", code: errno) }
        setCloseOnExec(fd)
        setOption(fd, SOL_SOCKET, SO_REUSEADDR)
        var address = sockaddr_in()
        #if canImport(Darwin)
            address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = in_addr_t(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 128) == 0
                    && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else {
            let code = errno
            closeDescriptor(fd)
            throw LoopbackError(operation: "bind", code: code)
        }
        setNonBlocking(fd)
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Prepares an accepted socket: non-blocking, no Nagle delay, no SIGPIPE.
    package static func configureAccepted(_ fd: Int32) {
        setCloseOnExec(fd)
        setNonBlocking(fd)
        setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY)
        #if canImport(Darwin)
            setOption(fd, SOL_SOCKET, SO_NOSIGPIPE)
        #endif
    }

    package static func setCloseOnExec(_ fd: Int32) {
        _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC)
    }

    package static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    package static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    private static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32) {
        var one: Int32 = 1
        _ = setsockopt(fd, level, name, &one, socklen_t(MemoryLayout<Int32>.size))
    }
}

/// What a wait for the peer's bytes brought.
package enum Received {
    /// The next bytes.
    case bytes([UInt8])
    /// The peer closed the connection, an error ended it, or the server stopped.
    case closed
    /// The deadline passed first.
    case timedOut
}

/// One accepted connection's socket. Every call gives up as soon as the server stops.
package struct ClientSocket: Sendable {
    package let fd: Int32
    package let stopSignal: StopSignal
    /// Its place among the listener's connections; bytes received mark it busy.
    package let slot: ConnectionSlot

    package init(fd: Int32, stopSignal: StopSignal, slot: ConnectionSlot) {
        self.fd = fd
        self.stopSignal = stopSignal
        self.slot = slot
    }

    #if canImport(Glibc)
        private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        private static let sendFlags: Int32 = 0  // SO_NOSIGPIPE is set on the socket instead.
    #endif

    /// The next bytes from the peer, waiting until `deadline` at the latest (`nil`: no limit).
    package func receive(until deadline: Date? = nil) -> Received {
        while true {
            var count = 0
            let bytes = [UInt8](unsafeUninitializedCapacity: 64 * 1024) { storage, initialized in
                count = recv(fd, storage.baseAddress, storage.count, 0)
                initialized = max(0, count)
            }
            if count > 0 {
                slot.markBusy()
                return .bytes(bytes)
            }
            if count == 0 { return .closed }
            guard errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return .closed }
            switch stopSignal.wait(
                for: fd, events: Int16(POLLIN), timeout: deadline.map { $0.timeIntervalSinceNow })
            {
            case .ready: continue
            case .timedOut: return .timedOut
            case .stopped: return .closed
            }
        }
    }

    /// Writes all of `bytes`; `false` if the peer went away, the server stopped, or the peer took none of
    /// them for `timeout` (`nil`: no limit), as when it stops reading a large reply.
    package func send(_ bytes: ArraySlice<UInt8>, timeout: TimeInterval? = nil) -> Bool {
        var deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
        var rest = bytes
        while !rest.isEmpty {
            let count = rest.withUnsafeBytes { systemSend(fd, $0.baseAddress, $0.count, Self.sendFlags) }
            if count > 0 {
                rest = rest.dropFirst(count)
                deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
                continue
            }
            guard count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return false }
            let left = deadline.map { $0.timeIntervalSinceNow }
            guard stopSignal.wait(for: fd, events: Int16(POLLOUT), timeout: left) == .ready else {
                return false
            }
        }
        return true
    }

    /// Writes what the socket takes now without waiting: the count written, 0 when it takes nothing now,
    /// `nil` when the peer went away.
    package func sendAvailable(_ bytes: ArraySlice<UInt8>) -> Int? {
        let count = bytes.withUnsafeBytes { systemSend(fd, $0.baseAddress, $0.count, Self.sendFlags) }
        if count >= 0 { return count }
        return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : nil
    }

    /// Reads and drops what the peer sent so far; `false` when it closed the connection.
    package func discardAvailable() -> Bool {
        var scratch = [UInt8](repeating: 0, count: 4 * 1024)
        let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        return count > 0 || (count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
    }

    /// Reads and drops whatever the peer sends until it closes or the server stops.
    package func discardUntilPeerCloses(timeout: TimeInterval? = nil) {
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
        var scratch = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let left = deadline.map { $0.timeIntervalSinceNow }
            if let left, left <= 0 { return }
            guard stopSignal.wait(for: fd, events: Int16(POLLIN), timeout: left) == .ready else { return }
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                return
            }
        }
    }

    /// Sends FIN, then drains the peer's bytes for up to a second, so an error reply is
    /// not destroyed by a reset when the peer is still sending.
    package func lingeringShutdown() {
        _ = shutdown(fd, Int32(SHUT_WR))
        discardUntilPeerCloses(timeout: 1)
    }

    package func close() {
        SocketIO.closeDescriptor(fd)
    }
}

/// `send(2)`, reachable from inside `ClientSocket`, whose own `send` hides it.
private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(fd, bytes, count, flags)
}
