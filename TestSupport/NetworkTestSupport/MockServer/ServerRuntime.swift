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
            acceptLoop()
            threads.leave()
        }
        thread.name = "MockServer accept :\(port)"
        thread.start()
    }

    /// Stops accepting, wakes every thread, waits for all of them, then frees the descriptors.
    func shutdown() {
        stopSignal.trigger()
        threads.wait()
        SocketIO.closeDescriptor(listenFD)
        stopSignal.close()
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
            let thread = Thread { [threads] in
                connection.run()
                threads.leave()
            }
            thread.name = "MockServer connection \(id)"
            thread.start()
        }
    }
}
