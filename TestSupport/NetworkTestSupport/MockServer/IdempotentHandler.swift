import Foundation
import NetworkLayer

/// Answers writes as a server that keeps the `Idempotency-Key` contract does, and counts what it did:
/// the first request with a key runs the wrapped handler (the effect) and its reply is kept; a request
/// repeating the key gets that reply again without running it; one arriving while the first is still
/// being handled gets `409 Conflict` with `Retry-After: 1`. A reply with a status of 400 or more is neither kept nor counted
/// as an effect (the request changed nothing, as when a server's validation refuses it), so the key may
/// be sent again. A request without the header runs the handler every time.
///
/// ```swift
/// let effects = server.serveIdempotently { _ in MockResponse(status: 201) }
/// // … deliver through an Outbox …
/// XCTAssertEqual(effects.effectCount(forKey: key), 1)
/// ```
///
/// Thread-safe: the server calls it from each connection's thread.
public final class IdempotentHandler: Sendable {
    private struct Ledger {
        var replies: [String: MockResponse] = [:]
        var handling: Set<String> = []
        var effects: [MockServerRequest] = []
        var effectCounts: [String: Int] = [:]
        var attemptCounts: [String: Int] = [:]
        var repliesToLose = 0
    }

    private let effect: MockServer.Handler
    private let ledger = Locked(Ledger())

    /// A handler whose effects `effect` performs.
    ///
    /// - Parameter effect: Acts on a request and makes its reply; run once per key.
    public init(_ effect: @escaping MockServer.Handler) {
        self.effect = effect
    }

    /// What to install as ``MockServer/handler``.
    public var handler: MockServer.Handler {
        { [self] request in try self.answer(request) }
    }

    /// The requests that had an effect, in the order they had it (a repeated key's aren't among them).
    public var effects: [MockServerRequest] { ledger.withLock { $0.effects } }

    /// How often the handler ran for `key`: 1 when the contract held, whatever the number of attempts.
    ///
    /// - Parameter key: An `Idempotency-Key`.
    /// - Returns: The number of effects.
    public func effectCount(forKey key: String) -> Int {
        ledger.withLock { $0.effectCounts[key, default: 0] }
    }

    /// How many requests carried `key`: every attempt, answered from the ledger or not.
    ///
    /// - Parameter key: An `Idempotency-Key`.
    /// - Returns: The number of requests.
    public func attemptCount(forKey key: String) -> Int {
        ledger.withLock { $0.attemptCounts[key, default: 0] }
    }

    /// Makes the next `count` effects (replies under 400) lose their replies: the server acts, keeps the reply for the key,
    /// then closes the connection without writing a byte, as when a reply is lost on the way back.
    ///
    /// - Parameter count: How many replies to lose.
    public func loseReplies(_ count: Int) {
        ledger.withLock { $0.repliesToLose += count }
    }

    private enum Step {
        case replay(MockResponse)
        case conflict
        case act
    }

    private func answer(_ request: MockServerRequest) throws -> MockResponse {
        guard let key = request.header("Idempotency-Key") else {
            let reply = try effect(request)
            if reply.status < 400 { ledger.withLock { $0.effects.append(request) } }
            return reply
        }
        let step = ledger.withLock { ledger -> Step in
            ledger.attemptCounts[key, default: 0] += 1
            if let reply = ledger.replies[key] { return .replay(reply) }
            if ledger.handling.contains(key) { return .conflict }
            ledger.handling.insert(key)
            return .act
        }
        switch step {
        case .replay(let reply): return reply
        case .conflict:
            return MockResponse(
                status: 409, headers: ["Retry-After": "1"],
                text: "A request with this Idempotency-Key is in progress.")
        case .act: return try act(request, key: key)
        }
    }

    private func act(_ request: MockServerRequest, key: String) throws -> MockResponse {
        let reply: MockResponse
        do {
            reply = try effect(request)
        } catch {
            ledger.withLock { _ = $0.handling.remove(key) }
            throw error
        }
        let loses = ledger.withLock { ledger -> Bool in
            ledger.handling.remove(key)
            guard reply.status < 400 else { return false }
            ledger.replies[key] = reply
            ledger.effects.append(request)
            ledger.effectCounts[key, default: 0] += 1
            guard ledger.repliesToLose > 0 else { return false }
            ledger.repliesToLose -= 1
            return true
        }
        return loses ? reply.withFault(.disconnectAfterRequest) : reply
    }
}

extension MockServer {
    /// Answers every request not scripted with ``enqueue(_:)`` through an ``IdempotentHandler`` around
    /// `effect`, and returns it, to count the effects.
    ///
    /// - Parameter effect: Acts on a request and makes its reply; run once per `Idempotency-Key`.
    /// - Returns: The handler, now the server's ``handler``.
    @discardableResult
    public func serveIdempotently(_ effect: @escaping Handler) -> IdempotentHandler {
        let idempotent = IdempotentHandler(effect)
        handler = idempotent.handler
        return idempotent
    }
}
