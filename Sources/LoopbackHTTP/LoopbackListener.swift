import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One run of a loopback server, from start to `shutdown()`: the listening socket on 127.0.0.1, the stop
/// signal, the accept thread and one thread per connection, which `serve` runs on.
///
/// Invariant for `@unchecked Sendable`: every stored property is a constant or guarded by `lock`; the
/// descriptors are closed only in `shutdown()`, after every thread has finished.
package final class LoopbackListener: @unchecked Sendable {
    /// Serves one accepted connection on its own thread, given its socket and number; the socket is closed
    /// when it returns.
    package typealias Serve = @Sendable (ClientSocket, Int) -> Void

    /// The port the system chose.
    package let port: Int
    private let name: String
    private let listenFD: Int32
    private let stopSignal: StopSignal
    private let threads = DispatchGroup()
    private let maxConnections: Int?
    private let admit: @Sendable () -> Int?
    private let serve: Serve
    private let lock = NSLock()
    /// The places of the connections being served, each counted against `maxConnections` until its thread
    /// ends or it is evicted; guarded by `lock`.
    private var slots: [ObjectIdentifier: ConnectionSlot] = [:]

    /// Binds 127.0.0.1 on a port the system picks and starts accepting.
    ///
    /// - Parameters:
    ///   - name: Names the server's threads, e.g. "MockServer".
    ///   - maxConnections: The most connections served at once; one more takes the place of the one idle
    ///     longest, or is closed at once when none is idle. `nil`: no limit.
    ///   - admit: A new connection's number, or `nil` to close it at once.
    ///   - serve: Serves one connection.
    package init(
        name: String, maxConnections: Int?, admit: @escaping @Sendable () -> Int?, serve: @escaping Serve
    ) throws(LoopbackError) {
        stopSignal = try StopSignal()
        do {
            (listenFD, port) = try SocketIO.makeLoopbackListener()
        } catch {
            stopSignal.close()
            throw error
        }
        self.name = name
        self.maxConnections = maxConnections
        self.admit = admit
        self.serve = serve
        threads.enter()
        let thread = Thread { [self] in
            markCurrentThread()
            acceptLoop()
            threads.leave()
        }
        thread.name = "\(name) accept :\(port)"
        thread.start()
    }

    /// How many connections are being served now.
    package var openConnections: Int { lock.withLock { slots.count } }

    /// How many of them wait for a request: the ones a newcomer at the limit may evict.
    package var idleConnections: Int {
        lock.withLock { slots.values.count(where: { $0.waitingSince != nil }) }
    }

    /// Stops accepting, wakes every thread, waits for all of them, then frees the descriptors.
    ///
    /// Called on one of the server's own threads (a handler that drops the last reference to its
    /// server), it cannot wait for itself: a detached thread waits and frees the descriptors instead.
    package func shutdown() {
        stopSignal.trigger()
        guard Thread.current.threadDictionary[Self.threadKey] as? String != identity else {
            let finisher = Thread { [self] in finish() }
            finisher.name = "\(name) shutdown :\(port)"
            finisher.start()
            return
        }
        finish()
    }

    private func finish() {
        threads.wait()
        SocketIO.closeDescriptor(listenFD)
        stopSignal.close()
    }

    /// Marks the server's own threads, so `shutdown()` can tell when it runs on one.
    private static let threadKey = "LoopbackHTTP.LoopbackListener"
    private var identity: String { "\(ObjectIdentifier(self).hashValue)" }

    private func markCurrentThread() {
        Thread.current.threadDictionary[Self.threadKey] = identity
    }

    private func acceptLoop() {
        while stopSignal.wait(for: listenFD, events: Int16(POLLIN)) == .ready {
            let fd = accept(listenFD, nil, nil)
            guard fd >= 0 else {
                // Out of descriptors: back off instead of spinning; other errors are transient.
                if errno == EMFILE || errno == ENFILE { _ = stopSignal.sleep(0.05) }
                continue
            }
            SocketIO.configureAccepted(fd)
            let slot = ConnectionSlot(fd: fd)
            guard reserve(slot) else {
                SocketIO.closeDescriptor(fd)
                continue
            }
            guard let id = admit() else {
                release(slot)
                SocketIO.closeDescriptor(fd)
                continue
            }
            startConnection(ClientSocket(fd: fd, stopSignal: stopSignal, slot: slot), id: id)
        }
    }

    /// Counts `slot` among the open connections; at the limit, in place of the connection idle longest,
    /// which is evicted. `false`, counting nothing, when the limit is reached and none is idle.
    ///
    /// Evicting rather than refusing serves a developer's browser best: a silent or forgotten connection
    /// (a preconnect never used, a tab's kept-alive socket, or a peer holding places on purpose) would
    /// otherwise keep the browser's next request out until its idle timeout, whereas a browser whose idle
    /// connection closes simply opens another. Busy connections are never cut, so when every place is busy
    /// the newcomer is the one refused.
    private func reserve(_ slot: ConnectionSlot) -> Bool {
        lock.withLock {
            if let maxConnections, slots.count >= maxConnections {
                let idle = slots.compactMap { key, slot in slot.waitingSince.map { (key, slot, $0) } }
                // One that turned busy since it was looked at stays; the next idle one goes instead.
                let evicted = idle.sorted { $0.2 < $1.2 }.first { $0.1.evictIfIdle() }
                guard let evicted else { return false }
                slots[evicted.0] = nil
            }
            slots[ObjectIdentifier(slot)] = slot
            return true
        }
    }

    /// Stops counting `slot`; nothing when it was evicted already.
    private func release(_ slot: ConnectionSlot) {
        _ = lock.withLock { slots.removeValue(forKey: ObjectIdentifier(slot)) }
    }

    private func startConnection(_ socket: ClientSocket, id: Int) {
        threads.enter()
        let thread = Thread { [self] in
            markCurrentThread()
            serve(socket, id)
            release(socket.slot)
            socket.close()
            threads.leave()
        }
        thread.name = "\(name) connection \(id)"
        thread.start()
    }
}
