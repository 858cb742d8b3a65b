import Foundation

/// A small HTTP/1.1 server on 127.0.0.1, for a page in a browser on the same machine: every request is read
/// whole within ``LoopbackLimits`` and handed to the handler, which answers it whole or opens a stream.
///
/// ```swift
/// let server = LoopbackServer(limits: LoopbackLimits()) { request, responder in
///     responder.reply(status: 200, headers: [("Content-Type", "text/plain")], body: Data("hi".utf8))
/// }
/// let port = try server.start()
/// ```
///
/// **Threads.** One thread accepts, and each connection gets its own, on which the handler runs: at most
/// ``LoopbackLimits/maxConnections`` of them, besides evicted ones ending. `stop()` (and `deinit`) wakes them
/// all and waits for them.
///
/// Invariant for `@unchecked Sendable`: `listener` and `nextConnection` are read and written only with
/// `lock` held.
package final class LoopbackServer: @unchecked Sendable {
    /// Answers one request, on the connection's thread, through the responder, before it returns.
    package typealias Handler = @Sendable (LoopbackRequest, LoopbackResponder) -> Void

    /// What the server accepts.
    package let limits: LoopbackLimits
    private let name: String
    private let handler: Handler
    private let lock = NSLock()
    private var listener: LoopbackListener?
    private var nextConnection = 0

    /// A stopped server.
    ///
    /// - Parameters:
    ///   - limits: What the server accepts.
    ///   - name: Names its threads.
    ///   - handler: Answers every request.
    package init(
        limits: LoopbackLimits = LoopbackLimits(), name: String = "LoopbackHTTP", handler: @escaping Handler
    ) {
        self.limits = limits
        self.name = name
        self.handler = handler
    }

    deinit {
        stop()
    }

    /// Binds 127.0.0.1 on a port the system picks and starts serving; when already serving, does nothing.
    ///
    /// - Returns: The port.
    @discardableResult
    package func start() throws(LoopbackError) -> Int {
        lock.lock()
        defer { lock.unlock() }
        if let listener { return listener.port }
        let (limits, handler) = (self.limits, self.handler)
        let started = try LoopbackListener(
            name: name, maxConnections: limits.maxConnections, admit: { [weak self] in self?.admit() },
            serve: { socket, _ in LoopbackConnection(socket: socket, limits: limits, handler: handler).run() }
        )
        listener = started
        return started.port
    }

    /// Closes the listening socket and every connection (ending every stream), and returns once every
    /// thread of the server has finished. Does nothing when not serving.
    package func stop() {
        let running = lock.withLock {
            defer { listener = nil }
            return listener
        }
        running?.shutdown()
    }

    /// The port served; 0 when stopped.
    package var port: Int { lock.withLock { listener?.port ?? 0 } }

    /// How many connections are being served now.
    package var openConnectionCount: Int { lock.withLock { listener?.openConnections ?? 0 } }

    /// How many of them wait for a request, and would give their place to a newcomer at the limit.
    package var idleConnectionCount: Int { lock.withLock { listener?.idleConnections ?? 0 } }

    private func admit() -> Int {
        lock.withLock {
            defer { nextConnection += 1 }
            return nextConnection
        }
    }
}
