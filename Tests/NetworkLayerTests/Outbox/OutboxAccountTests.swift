import Foundation
import NetworkTestSupport
import XCTest

@testable import NetworkLayer

/// Whom an item is for: the account signed in when it was enqueued unless it names one, never the next
/// user's; no account known is refused; "any account" is said explicitly; and what a redirect does.
final class OutboxAccountTests: XCTestCase {
    private let callbacks = DispatchQueue(label: "test.outbox.accounts")

    /// A server that rejects the item with index 0 (a dead letter that holds the queue, so the next item
    /// waits while the test switches users) and creates every other.
    private func holdingServer() throws -> MockServer {
        try startedServer { request in
            index(of: request.body) == 0 ? MockResponse(status: 422, text: "rejected") : created(request)
        }
    }

    private func layer(_ server: MockServer, _ authenticator: BearerTokenAuthenticator? = nil) -> NetworkLayer
    {
        NetworkLayer(
            baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: callbacks, timeout: 10,
            interceptors: authenticator.map { [$0] } ?? [])
    }

    private func signedIn(_ account: String) -> BearerTokenAuthenticator {
        let authenticator = BearerTokenAuthenticator(accessToken: nil) { completion in
            completion(.failure(.custom("no refresh in this test")))
        }
        authenticator.setAccessToken("token-\(account)", account: account)
        return authenticator
    }

    /// An unnamed POST: the form the outbox article's sample used before accounts were required.
    private func unnamedPost(_ index: Int) -> OutboxRequest {
        OutboxRequest(.post, "items", body: .json(["index": index]), kind: "item")
    }

    func testAnItemEnqueuedWithoutAnAccountUnderAIsNotSentAsBAfterASwitch() throws {
        let server = try holdingServer()
        let authenticator = signedIn("alice")
        var options = quickOutboxOptions()
        options.accountMismatch = .deadLetter
        let outbox = try Outbox(
            directory: makeOutboxFolder(), layer: layer(server, authenticator), options: options)
        let log = OutboxEventLog(outbox)
        let held = try outbox.enqueue(unnamedPost(0))
        XCTAssertTrue(log.waitForDeadLetters(1), "the first item holds the queue")
        let item = try outbox.enqueue(unnamedPost(1))
        XCTAssertEqual(outbox.items.last?.account, "alice", "the account signed in when it was enqueued")

        authenticator.setAccessToken("token-bob", account: "bob")
        try outbox.remove(held)

        XCTAssertTrue(log.waitForDeadLetters(2), "held for alice: \(log.events)")
        guard case .accountMismatch = try XCTUnwrap(log.deadLettered.last).1 else {
            return XCTFail("\(log.deadLettered)")
        }
        XCTAssertEqual(server.recordedRequests.map { $0.header("Authorization") }, ["Bearer token-alice"])

        authenticator.setAccessToken("token-alice-2", account: "alice")
        try outbox.retry(item)
        XCTAssertTrue(log.waitForDeliveries(1))
        XCTAssertEqual(server.recordedRequests.last?.header("Authorization"), "Bearer token-alice-2")
        XCTAssertFalse(server.recordedRequests.contains { $0.header("Authorization") == "Bearer token-bob" })
    }

    func testWithoutAnAuthenticatorTheLayersAccountIsTheItemsAndItWaitsForIt() throws {
        let server = try holdingServer()
        let network = layer(server)
        network.account = "alice"
        let outbox = try Outbox(directory: makeOutboxFolder(), layer: network, options: quickOutboxOptions())
        let log = OutboxEventLog(outbox)
        let held = try outbox.enqueue(unnamedPost(0))
        XCTAssertTrue(log.waitForDeadLetters(1))
        try outbox.enqueue(unnamedPost(1))

        network.account = "bob"
        try outbox.remove(held)
        outbox.queue.sync {}

        XCTAssertNil(outbox.state.withLock { $0.inFlight }, "not sent while bob is signed in")
        XCTAssertEqual(server.requestCount, 1)
        XCTAssertEqual(outbox.items.map(\.account), ["alice"])

        network.account = "alice"
        outbox.flush()
        XCTAssertTrue(log.waitForDeliveries(1))
        XCTAssertEqual(server.requestCount, 2)
    }

    func testEnqueueWithNoAccountKnownFailsAndStoresNothing() throws {
        let server = try startedServer(created)
        let folder = try makeOutboxFolder()
        let outbox = try Outbox(directory: folder, layer: layer(server), options: quickOutboxOptions())

        XCTAssertThrowsError(try outbox.enqueue(unnamedPost(0))) { error in
            guard case .noAccount = error as? OutboxError else { return XCTFail("\(error)") }
            let message = (error as? OutboxError)?.message ?? ""
            XCTAssertTrue(message.contains("account:"), message)
            XCTAssertTrue(message.contains(".any"), message)
        }
        XCTAssertThrowsError(try outbox.enqueue(OutboxRequest(.post, "items", kind: "item", account: nil)))

        XCTAssertEqual(outbox.items, [])
        let stored = try FileManager.default.contentsOfDirectory(
            atPath: folder.appendingPathComponent("outbox.outbox").path)
        XCTAssertEqual(stored.filter { $0.hasSuffix(".item") }, [])
        XCTAssertEqual(server.requestCount, 0)
    }

    func testAnyAccountGoesOutAsWhoeverIsSignedInWhenItIsSent() throws {
        let server = try holdingServer()
        let authenticator = signedIn("alice")
        let outbox = try Outbox(
            directory: makeOutboxFolder(), layer: layer(server, authenticator), options: quickOutboxOptions())
        let log = OutboxEventLog(outbox)
        let held = try outbox.enqueue(unnamedPost(0))
        XCTAssertTrue(log.waitForDeadLetters(1))
        try outbox.enqueue(
            OutboxRequest(.post, "items", body: .json(["index": 1]), kind: "item", account: .any))
        XCTAssertEqual(outbox.items.last?.account, nil, "stored for anyone")

        authenticator.setAccessToken("token-bob", account: "bob")
        try outbox.remove(held)

        XCTAssertTrue(log.waitForDeliveries(1))
        XCTAssertEqual(server.recordedRequests.last?.header("Authorization"), "Bearer token-bob")
    }

    /// Items an earlier version stored without an account were for anyone, and load so.
    func testAnItemStoredWithoutAnAccountByAnEarlierVersionGoesOutForAnyone() throws {
        let server = try startedServer(created)
        let folder = try makeOutboxFolder()
        let storage = try OutboxDiskStorage(directory: folder, name: "outbox")
        let body = try JSONEncoder().encode(["index": 7])
        try storage.save(
            OutboxItem(
                id: UUID(), sequence: 1, kind: "item", account: nil, method: "POST", urlString: "items",
                headers: ["Content-Type": "application/json"], body: body, query: [:],
                idempotencyKey: UUID().uuidString, enqueuedAt: Date(), expiresAt: nil, attempts: 0,
                deadLetter: nil),
            flushToDevice: false)
        let payload = try XCTUnwrap(storage.folder.read("00000000000000000001.item", maximumSize: 1 << 20))
            .payload
        let members = try XCTUnwrap(JSONSerialization.jsonObject(with: payload) as? [String: Any])
        XCTAssertNil(members["account"], "no account member, as an earlier version wrote it")
        storage.close()

        let outbox = try Outbox(
            directory: folder, layer: layer(server, signedIn("bob")), options: quickOutboxOptions())
        let log = OutboxEventLog(outbox)

        XCTAssertTrue(log.waitForDeliveries(1))
        XCTAssertEqual(server.recordedRequests.first?.header("Authorization"), "Bearer token-bob")
    }

    /// FoundationNetworking re-sends a 307/308 with an empty body, so the layer's default policy doesn't
    /// follow a redirect that keeps a body (`RedirectPolicy`): an item with a body gets the 3xx, a
    /// rejection, and becomes a dead letter with its status; the moved URL is never sent to. An item
    /// without a body (a `DELETE`) follows it. Apple's URLSession re-sends the body and follows.
    func testASameOrigin307Or308IsADeadLetterForAnItemWithABodyAndFollowedWithout() throws {
        for status in [307, 308] {
            let server = try startedServer { request in
                request.path == "/moved"
                    ? MockResponse(status: 201, text: "created")
                    : MockResponse(status: status, headers: ["Location": "/moved"])
            }
            let outbox = try Outbox(
                directory: makeOutboxFolder(), layer: layer(server), options: quickOutboxOptions())
            let log = OutboxEventLog(outbox)
            try outbox.enqueue(indexedPost(0))
            #if canImport(FoundationNetworking)
                XCTAssertTrue(log.waitForDeadLetters(1), "\(status)")
                let (item, error) = try XCTUnwrap(log.deadLettered.first)
                guard case .rejected(let rejection) = error else { return XCTFail("\(status): \(error)") }
                XCTAssertEqual(rejection.statusCode, status)
                XCTAssertEqual(item.deadLetter?.statusCode, status)
                XCTAssertEqual(server.recordedRequests.map(\.path), ["/items"], "\(status)")
                try outbox.remove(item.id)
                let deliveries = 1
            #else
                XCTAssertTrue(log.waitForDeliveries(1), "\(status)")
                XCTAssertEqual(server.recordedRequests.map(\.path), ["/items", "/moved"], "\(status)")
                let deliveries = 2
            #endif

            try outbox.enqueue(OutboxRequest(.delete, "items/1", kind: "item.delete", account: .any))
            XCTAssertTrue(log.waitForDeliveries(deliveries), "\(status): a bodiless item follows")
            XCTAssertEqual(server.recordedRequests.last?.path, "/moved", "\(status)")
            XCTAssertEqual(server.recordedRequests.last?.method, "DELETE", "\(status)")
        }
    }
}
