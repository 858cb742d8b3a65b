import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One run of a ``MockServer``, from `start()` to `stop()`: the listening socket, the
/// stop signal, the accept thread and one thread per connection.
///
/// Invariant for `@unchecked Sendable`: every stored property is a constant; the
/// descriptors are closed only in `shutdown()`, after every thread has finished.
final class ServerRuntime: @unchecked Sendable {
    let port: Int
    private let listenFD: Int32
    private let stopSignal: StopSignal
    private let threads = DispatchGroup()
    private let state: ServerState
    private let maxBodyBytes: Int

    init(state: ServerState, maxBodyBytes: Int) throws(MockServerError) {
        stopSignal = try StopSignal()
        do {
            (listenFD, port) = try SocketIO.makeLoopbackListener()
        } catch {
            stopSignal.close()
            throw error
        }
        self.state = state
        self.maxBodyBytes = maxBodyBytes
        threads.enter()
        let thread = Thread { [self] in
            markCurrentThread()
            acceptLoop()
            threads.leave()
        }
        thread.name = "MockServer accept :\(port)"
        thread.start()
    }

    /// Stops accepting, wakes every thread, waits for all of them, then frees the descriptors.
    ///
    /// Called on one of the server's own threads (a handler that drops the last reference to its
    /// server), it cannot wait for itself: a detached thread waits and frees the descriptors instead.
    func shutdown() {
        stopSignal.trigger()
        guard Thread.current.threadDictionary[Self.threadKey] as? String != identity else {
            let finisher = Thread { [self] in finish() }
            finisher.name = "MockServer shutdown :\(port)"
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
    private static let threadKey = "NetworkTestSupport.MockServer.runtime"
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
            guard let id = state.admitConnection() else {
                SocketIO.closeDescriptor(fd)
                continue
            }
            let connection = Connection(
                socket: ClientSocket(fd: fd, stopSignal: stopSignal), id: id, state: state,
                maxBodyBytes: maxBodyBytes)
            threads.enter()
            let thread = Thread { [self] in
                markCurrentThread()
                connection.run()
                threads.leave()
            }
            thread.name = "MockServer connection \(id)"
            thread.start()
        }
    }
}
