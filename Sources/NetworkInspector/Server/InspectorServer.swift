import Foundation
import LoopbackHTTP
import NetworkLayer

/// The inspector's server while it runs: LoopbackHTTP's listener on 127.0.0.1, its tight limits (request
/// line, head, body, slow and idle connections, connection count), and the routes. Each connection is
/// served on its own thread; an event stream keeps its thread until the tab goes.
final class InspectorServer: Sendable {
    /// The most events a tab's queue holds; the bytes are bounded by the limits' `maxQueuedBytes`.
    static let maximumQueuedEvents = 256

    let access: AccessCheck
    private let listener: LoopbackListener

    /// Starts serving `routes` (made for the port the system picks) to tabs added to `fanOut`.
    init(
        limits: LoopbackLimits = LoopbackLimits(), fanOut: EventFanOut,
        routes: @escaping @Sendable (AccessCheck) -> InspectorRoutes
    ) throws(LoopbackError) {
        // The routes need the port, known once bound, and the listener accepts at once: a connection
        // before they are set (nobody knows the port yet) is closed unanswered.
        let box = Locked<InspectorRoutes?>(nil)
        let counter = Locked(0)
        listener = try LoopbackListener(
            name: "NetworkInspector", maxConnections: limits.maxConnections,
            admit: {
                counter.withLock { count in
                    count += 1
                    return count
                }
            },
            serve: { socket, _ in
                guard let routes = box.withLock({ $0 }) else { return }
                Self.serve(socket, routes: routes, limits: limits, fanOut: fanOut)
            })
        access = AccessCheck(port: listener.port)
        let made = routes(access)
        box.withLock { $0 = made }
    }

    var port: Int { access.port }
    var openConnections: Int { listener.openConnections }

    /// Closes the port and every connection, event streams included; returns once they are closed.
    func stop() {
        listener.shutdown()
    }

    /// Serves one connection's requests until it closes, an error ends it, or it becomes an event stream.
    private static func serve(
        _ socket: ClientSocket, routes: InspectorRoutes, limits: LoopbackLimits, fanOut: EventFanOut
    ) {
        var parser = HTTPRequestParser(limits: limits) { socket.receive(until: $0) }
        while true {
            let head: RequestHead
            do throws(HTTPParseError) {
                guard let next = try parser.readHead() else { return }
                head = next
                // A body is read (within the limit) and ignored: no route takes one.
                _ = try parser.readBody(try parser.framing(of: head), keeping: false)
            } catch {
                guard let status = error.status else { return }
                _ = socket.send(ArraySlice(HTTPStatus.errorReply(status: status, detail: "refused")))
                socket.lingeringShutdown()
                return
            }
            switch routes.outcome(for: head) {
            case .reply(let reply):
                let closing = !head.wantsKeepAlive || reply.status >= 400
                guard socket.send(ArraySlice(reply.bytes(closing: closing))), !closing else { return }
            case .events:
                streamEvents(to: socket, limits: limits, fanOut: fanOut)
                return
            }
        }
    }

    private static func streamEvents(to socket: ClientSocket, limits: LoopbackLimits, fanOut: EventFanOut) {
        let head = InspectorReply.headers(
            status: 200, contentType: "text/event-stream", length: nil, closing: true)
        // Before the tab is added: no event goes out ahead of the head.
        guard socket.send(ArraySlice(head)) else { return }
        let tab = TabStream(maximumEvents: maximumQueuedEvents, maximumBytes: limits.maxQueuedBytes)
        fanOut.add(tab)
        tab.run(on: socket)
    }
}
