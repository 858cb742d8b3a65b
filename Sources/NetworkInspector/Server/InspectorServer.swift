import Foundation
import LoopbackHTTP
import NetworkLayer

/// The inspector's server while it runs: LoopbackHTTP's server on 127.0.0.1, its tight limits (request
/// line, head, body, slow and idle connections, connection count, each tab's queue), and the routes.
/// Each connection is served on its own thread; an event stream keeps its thread until the tab goes.
final class InspectorServer: Sendable {
    let access: AccessCheck
    private let server: LoopbackServer

    /// Starts serving `routes` (made for the port the system picks) to tabs added to `fanOut`.
    init(
        limits: LoopbackLimits = LoopbackLimits(), fanOut: EventFanOut,
        routes: @escaping @Sendable (AccessCheck) -> InspectorRoutes
    ) throws(LoopbackError) {
        // The routes need the port, known once bound, and the server accepts at once: a request before
        // they are set (nobody knows the port yet) gets 503.
        let box = Locked<InspectorRoutes?>(nil)
        server = LoopbackServer(limits: limits, name: "NetworkInspector") { request, responder in
            guard let routes = box.withLock({ $0 }) else { return responder.reply(status: 503) }
            switch routes.outcome(for: request) {
            case .reply(let reply):
                reply.send(to: responder)
            case .events:
                let stream = responder.open(headers: InspectorReply.headers(contentType: "text/event-stream"))
                fanOut.add(EventTab(stream: stream, capacity: limits.maxQueuedBytes))
            }
        }
        access = AccessCheck(port: try server.start())
        let made = routes(access)
        box.withLock { $0 = made }
    }

    var port: Int { access.port }
    var openConnections: Int { server.openConnectionCount }
    /// How many wait for a request, for the tests: a newcomer at the limit takes one's place.
    var idleConnections: Int { server.idleConnectionCount }

    /// Closes the port and every connection, event streams included; returns once they are closed.
    func stop() {
        server.stop()
    }
}
