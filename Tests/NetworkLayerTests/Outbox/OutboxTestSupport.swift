import Foundation
import NetworkTestSupport
import XCTest

@testable import NetworkLayer

/// What an outbox told its observer, with a wait that returns as soon as a condition holds (each event
/// signals the condition: no polling, no sleep).
final class OutboxEventLog: @unchecked Sendable {
    // @unchecked: every field is guarded by `condition`.
    private let condition = NSCondition()
    private var recorded: [OutboxEvent] = []
    private(set) var observation: OutboxObservation?

    init(_ outbox: Outbox) {
        observation = outbox.addObserver(on: DispatchQueue(label: "test.outbox.events")) {
            [weak self] event in
            guard let self else { return }
            condition.withLock {
                recorded.append(event)
                condition.broadcast()
            }
        }
    }

    var events: [OutboxEvent] { condition.withLock { recorded } }

    var delivered: [OutboxItem] {
        events.compactMap { if case .delivered(let item, _) = $0 { item } else { nil } }
    }

    var deadLettered: [(OutboxItem, OutboxError)] {
        events.compactMap { if case .deadLettered(let item, let error) = $0 { (item, error) } else { nil } }
    }

    var lastCount: (waiting: Int, deadLetters: Int)? { Self.lastCount(in: events) }

    static func lastCount(in events: [OutboxEvent]) -> (waiting: Int, deadLetters: Int)? {
        events.reversed().lazy.compactMap { event -> (Int, Int)? in
            if case .count(let waiting, let deadLetters) = event { (waiting, deadLetters) } else { nil }
        }.first
    }

    /// Waits up to `timeout` real seconds for `condition` to hold over the events.
    @discardableResult
    func wait(timeout: TimeInterval = 10, until check: ([OutboxEvent]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return condition.withLock {
            while !check(recorded) {
                if !condition.wait(until: deadline) { return check(recorded) }
            }
            return true
        }
    }

    func waitForDeliveries(_ count: Int, timeout: TimeInterval = 10) -> Bool {
        wait(timeout: timeout) { events in
            events.count { if case .delivered = $0 { true } else { false } } >= count
        }
    }

    func waitForDeadLetters(_ count: Int, timeout: TimeInterval = 10) -> Bool {
        wait(timeout: timeout) { events in
            events.count { if case .deadLettered = $0 { true } else { false } } >= count
        }
    }
}

extension XCTestCase {
    /// A new empty folder, removed after the test.
    func makeOutboxFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// A fresh outbox folder and, inside it, the folder its items live in, made, for a test that puts
    /// files there itself.
    func makeOutboxItemsFolder() throws -> (folder: URL, items: URL) {
        let folder = try makeOutboxFolder()
        let items = folder.appendingPathComponent("outbox.outbox")
        try FileManager.default.createDirectory(at: items, withIntermediateDirectories: true)
        return (folder, items)
    }

    /// A started server, stopped after the test.
    func startedServer(_ handler: MockServer.Handler? = nil) throws -> MockServer {
        let server = MockServer(handler: handler)
        try server.start()
        addTeardownBlock { server.stop() }
        return server
    }
}

/// The `index` of an item made by ``indexedPost(_:account:)``.
func index(of body: Data) -> Int? {
    (try? JSONDecoder().decode([String: Int].self, from: body))?["index"]
}

/// A server's effect: 201 with the request's body.
@Sendable func created(_ request: MockServerRequest) -> MockResponse {
    MockResponse(status: 201, headers: ["Content-Type": "application/json"], body: request.body)
}

/// A POST whose body tells the server which one it is; for anyone unless an account is named (these
/// layers are signed in as no one).
func indexedPost(_ index: Int, account: OutboxRequest.Account = .any) -> OutboxRequest {
    OutboxRequest(.post, "items", body: .json(["index": index]), kind: "item", account: account)
}

/// Options whose waits are short on a real clock.
func quickOutboxOptions() -> OutboxOptions {
    var options = OutboxOptions()
    options.initialDelay = 0.02
    options.maximumDelay = 0.2
    return options
}
