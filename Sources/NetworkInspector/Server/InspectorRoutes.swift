import Foundation
import LoopbackHTTP

/// What the server answers a request with: a reply, or the event stream. Checks come first: a `Host`
/// other than the loopback address with the inspector's port gets 421, a missing or wrong token 403.
struct InspectorRoutes: Sendable {
    enum Outcome {
        case reply(InspectorReply)
        case events
    }

    let access: AccessCheck
    let store: InspectorStore
    let clear: @Sendable () -> Void
    let page: @Sendable (_ snapshot: Data, _ token: String) -> Data

    func outcome(for request: LoopbackRequest) -> Outcome {
        guard access.allows(host: request.host) else {
            return .reply(.text(421, "This server answers only to 127.0.0.1:\(access.port)."))
        }
        guard access.allows(token: request.queryValue("token")) else {
            return .reply(.text(403, "Forbidden."))
        }
        switch (request.method, request.path) {
        case ("GET", "/"):
            return .reply(.html(page(InspectorEvent.encoded(store.snapshot()), access.token)))
        case ("GET", "/api/snapshot"):
            return .reply(.json(InspectorEvent.encoded(store.snapshot())))
        case ("GET", "/api/events"):
            return .events
        case ("GET", "/api/clear"), ("POST", "/api/clear"):
            clear()
            return .reply(.json(Data("{}".utf8)))
        case (_, "/"), (_, "/api/snapshot"), (_, "/api/events"), (_, "/api/clear"):
            return .reply(.text(405, "Method not allowed."))
        default:
            return .reply(.text(404, "Not found."))
        }
    }
}
