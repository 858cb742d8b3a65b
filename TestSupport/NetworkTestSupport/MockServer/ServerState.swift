import Foundation
import LoopbackHTTP

/// What the test scripted and what the server recorded, shared by the test's threads
/// and the server's threads.
///
/// Invariant that makes `@unchecked Sendable` sound: every stored property is read and
/// written only while `condition` is locked. Handlers run outside the lock.
final class ServerState: @unchecked Sendable {
    /// Whether request bodies are counted and dropped instead of recorded.
    let discardsBodies: Bool
    private let condition = NSCondition()
    private var queue: [MockResponse] = []
    private var handler: MockServer.Handler?
    private var bodyHandler: MockServer.BodyHandler?
    private var recorded: [MockServerRequest] = []
    private var nextToTake = 0
    private var connectionsAccepted = 0

    init(discardsBodies: Bool = false) {
        self.discardsBodies = discardsBodies
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    func enqueue(_ responses: [MockResponse]) {
        locked { queue += responses }
    }

    var queuedCount: Int { locked { queue.count } }

    var currentHandler: MockServer.Handler? {
        get { locked { handler } }
        set { locked { handler = newValue } }
    }

    var currentBodyHandler: MockServer.BodyHandler? {
        get { locked { bodyHandler } }
        set { locked { bodyHandler = newValue } }
    }

    /// The receiver the body handler gives the request with `head`, or `nil` when the body is read as usual.
    /// The handler runs outside the lock.
    func bodyReceiver(for head: RequestHead, connectionID: Int) -> MockBodyReceiver? {
        let (bodyHandler, sequenceNumber) = locked { (self.bodyHandler, recorded.count) }
        guard let bodyHandler else { return nil }
        return bodyHandler(
            MockServerRequest(
                head: head, body: [], bodyLength: 0, sequenceNumber: sequenceNumber,
                connectionID: connectionID))
    }

    /// Records a request whose body went to a receiver, and wakes `takeRequest` callers. It takes no queued
    /// reply: its receiver answers it.
    func recordStreamed(head: RequestHead, bodyLength: Int, connectionID: Int) -> MockServerRequest {
        locked {
            let request = MockServerRequest(
                head: head, body: [], bodyLength: bodyLength, sequenceNumber: recorded.count,
                connectionID: connectionID)
            recorded.append(request)
            condition.broadcast()
            return request
        }
    }

    var requestCount: Int { locked { recorded.count } }

    var allRequests: [MockServerRequest] { locked { recorded } }

    /// A new connection's number; `nil` when the scripted reply at the head of the queue
    /// asks to drop this connection at once (that reply is consumed).
    func admitConnection() -> Int? {
        locked {
            if queue.first?.fault == .disconnectAtStart {
                queue.removeFirst()
                return nil
            }
            defer { connectionsAccepted += 1 }
            return connectionsAccepted
        }
    }

    /// What answers a request: the reply at the head of the queue, else the handler, else a 404.
    enum ReplyChoice {
        case scripted(MockResponse)
        case handler(MockServer.Handler)
        case none
    }

    /// Records a complete request, wakes `takeRequest` callers, and takes what answers it, in one step:
    /// concurrent connections then get the queue's replies in the order their requests are recorded.
    func record(
        head: RequestHead, body: [UInt8], bodyLength: Int, connectionID: Int
    ) -> (MockServerRequest, ReplyChoice) {
        locked {
            let request = MockServerRequest(
                head: head, body: body, bodyLength: bodyLength, sequenceNumber: recorded.count,
                connectionID: connectionID)
            recorded.append(request)
            condition.broadcast()
            let choice: ReplyChoice =
                if !queue.isEmpty {
                    .scripted(queue.removeFirst())
                } else if let handler {
                    .handler(handler)
                } else {
                    .none
                }
            return (request, choice)
        }
    }

    /// The reply `choice` gives `request`; a handler runs here, outside the lock.
    func response(for request: MockServerRequest, choice: ReplyChoice) -> MockResponse {
        switch choice {
        case .scripted(let reply):
            return reply
        case .handler(let handler):
            do {
                return try handler(request)
            } catch {
                return MockResponse(status: 500, text: "MockServer: the handler threw \(error)\n")
            }
        case .none:
            return MockResponse(
                status: 404, text: "MockServer: no reply scripted for \(request.method) \(request.target)\n")
        }
    }

    /// The oldest request not yet taken, waiting up to `timeout` seconds for one to arrive.
    func takeRequest(timeout: TimeInterval) -> MockServerRequest? {
        // NSCondition traps on an infinite or NaN deadline: NaN means no wait, infinity about 115 days.
        let deadline = Date(timeIntervalSinceNow: timeout.isNaN ? 0 : min(timeout, 10_000_000))
        condition.lock()
        defer { condition.unlock() }
        while nextToTake >= recorded.count {
            if !condition.wait(until: deadline) && nextToTake >= recorded.count { return nil }
        }
        defer { nextToTake += 1 }
        return recorded[nextToTake]
    }
}
