import Foundation
import NetworkTestSupport
import TestKit
import XCTest

@testable import NetworkLayer

/// How an outbox delivers against a real server: in order, exactly once by its `Idempotency-Key`,
/// retrying what may pass, dead-lettering what won't, through the layer's pipeline.
final class OutboxDeliveryTests: XCTestCase {
    private let callbacks = DispatchQueue(label: "test.outbox.callbacks")

    private func layer(
        _ server: MockServer, clock: TestClock? = nil, interceptors: [any RequestInterceptor] = []
    ) -> NetworkLayer {
        NetworkLayer(
            clock: clock, baseURL: server.baseURL, sessionConfiguration: .ephemeral, callbackQueue: callbacks,
            timeout: 10, interceptors: interceptors)
    }

    func testItemsGoOutInOrderEachWithItsOwnKeyThroughTheLayersPipeline() throws {
        let server = try startedServer()
        let effects = server.serveIdempotently(created)
        let outbox = try Outbox(
            directory: makeOutboxFolder(),
            layer: layer(server, interceptors: [SettingHeader(name: "X-App", value: "7")]),
            options: quickOutboxOptions())
        let log = OutboxEventLog(outbox)
        let ids = try (0..<5).map { try outbox.enqueue(indexedPost($0)) }

        XCTAssertTrue(log.waitForDeliveries(5))
        XCTAssertEqual(log.delivered.map(\.id), ids)
        XCTAssertEqual(effects.effects.compactMap { index(of: $0.body) }, Array(0..<5))
        let keys = log.delivered.map(\.idempotencyKey)
        XCTAssertEqual(effects.effects.map { $0.header("Idempotency-Key") }, keys)
        XCTAssertEqual(Set(keys).count, 5, "one key per item")
        XCTAssertEqual(
            effects.effects.map { $0.header("X-App") }, Array(repeating: "7", count: 5), "interceptors ran")
        XCTAssertEqual(effects.effects.map(\.method), Array(repeating: "POST", count: 5))
        XCTAssertTrue(log.wait { OutboxEventLog.lastCount(in: $0)?.waiting == 0 })
        XCTAssertEqual(outbox.items, [])
        XCTAssertTrue(
            try FileManager.default.contentsOfDirectory(
                atPath: outbox.directory.appendingPathComponent("outbox.outbox").path
            ).allSatisfy { !$0.hasSuffix(".item") })
    }

    func testAReplyLostAfterTheServerActedIsRetriedWithTheSameKeyAndActsOnce() throws {
        let server = try startedServer()
        let effects = server.serveIdempotently(created)
        effects.loseReplies(1)
        let outbox = try Outbox(
            directory: makeOutboxFolder(), layer: layer(server), options: quickOutboxOptions())
        let log = OutboxEventLog(outbox)
        try outbox.enqueue(indexedPost(1))

        XCTAssertTrue(log.waitForDeliveries(1))
        let key = try XCTUnwrap(log.delivered.first?.idempotencyKey)
        XCTAssertGreaterThanOrEqual(effects.attemptCount(forKey: key), 2, "the reply was lost: sent again")
        XCTAssertEqual(effects.effectCount(forKey: key), 1, "and acted on once")
        XCTAssertEqual(effects.effects.count, 1)
        XCTAssertEqual(Set(server.recordedRequests.map { $0.header("Idempotency-Key") }), [key])
    }

    func testA422BecomesADeadLetterWithItsBodyAndPausesTheQueueUntilRetried() throws {
        let server = try startedServer()
        let accepting = Locked(false)
        let effects = server.serveIdempotently { request in
            accepting.withLock { $0 }
                ? created(request) : MockResponse(status: 422, text: "{\"error\":\"title is empty\"}")
        }
        let outbox = try Outbox(
            directory: makeOutboxFolder(), layer: layer(server), options: quickOutboxOptions())
        let log = OutboxEventLog(outbox)
        let first = try outbox.enqueue(indexedPost(0))
        try outbox.enqueue(indexedPost(1))

        XCTAssertTrue(log.waitForDeadLetters(1))
        let (item, error) = try XCTUnwrap(log.deadLettered.first)
        XCTAssertEqual(item.id, first)
        XCTAssertEqual(item.deadLetter?.statusCode, 422)
        XCTAssertEqual(
            item.deadLetter.map { String(decoding: $0.body, as: UTF8.self) }, "{\"error\":\"title is empty\"}"
        )
        guard case .rejected(let networkError) = error else { return XCTFail("\(error)") }
        XCTAssertEqual(networkError.statusCode, 422)
        outbox.flush()
        outbox.queue.sync {}
        XCTAssertNil(
            outbox.state.withLock { $0.inFlight }, "the dead letter holds its queue: nothing in flight")
        XCTAssertEqual(server.requestCount, 1, "the second item waited")
        XCTAssertEqual(outbox.deadLetters.map(\.id), [first])
        XCTAssertTrue(log.wait { OutboxEventLog.lastCount(in: $0).map { $0 == (2, 1) } ?? false })

        accepting.withLock { $0 = true }
        try outbox.retry(first)
        XCTAssertTrue(log.waitForDeliveries(2))
        XCTAssertEqual(log.delivered.compactMap { index(of: $0.body) }, [0, 1], "in order after the retry")
        XCTAssertEqual(effects.effects.count, 2, "a 422 changed nothing on the server")
        XCTAssertEqual(
            Set(server.recordedRequests.map { $0.header("Idempotency-Key") }).count, 2, "retried with its key"
        )
    }

    func testRemovingADeadLetterLetsTheQueueGoOn() throws {
        let server = try startedServer()
        let effects = server.serveIdempotently { request in
            index(of: request.body) == 0 ? MockResponse(status: 409, text: "conflict") : created(request)
        }
        let outbox = try Outbox(
            directory: makeOutboxFolder(), layer: layer(server), options: quickOutboxOptions())
        let log = OutboxEventLog(outbox)
        let first = try outbox.enqueue(indexedPost(0))
        try outbox.enqueue(indexedPost(1))
        XCTAssertTrue(log.waitForDeadLetters(1))

        try outbox.remove(first)
        XCTAssertTrue(log.waitForDeliveries(1))
        XCTAssertEqual(log.delivered.compactMap { index(of: $0.body) }, [1])
        XCTAssertEqual(effects.effects.compactMap { index(of: $0.body) }, [1], "the 409 changed nothing")
        XCTAssertThrowsError(try outbox.remove(first)) { XCTAssertNotNil($0 as? OutboxError) }
    }

    func testA503WithRetryAfterIsSentAgainAfterThatWaitOnTheLayersClock() throws {
        let clock = TestClock()
        let server = try startedServer()
        server.enqueue(MockResponse(status: 503, headers: ["Retry-After": "1"], text: "busy"))
        let effects = server.serveIdempotently(created)
        let outbox = try Outbox(directory: makeOutboxFolder(), layer: layer(server, clock: clock))
        let log = OutboxEventLog(outbox)
        try outbox.enqueue(indexedPost(3))

        XCTAssertTrue(clock.wait { $0.waits == [1] }, "\(clock.waits)")
        XCTAssertEqual(server.requestCount, 1)
        clock.advance(by: 0.9)
        XCTAssertEqual(server.requestCount, 1, "not before the second has passed")
        clock.advance(by: 0.1)
        XCTAssertTrue(log.waitForDeliveries(1))
        XCTAssertEqual(effects.effects.count, 1)
        XCTAssertEqual(
            Set(server.recordedRequests.map { $0.header("Idempotency-Key") }).count, 1,
            "the same key both times")
    }

    func testA401GoesThroughTheRefreshFirst() throws {
        let server = try startedServer()
        server.enqueue(MockResponse(status: 401, headers: ["WWW-Authenticate": "Bearer"], text: "expired"))
        let effects = server.serveIdempotently(created)
        let refreshes = Locked(0)
        let authenticator = BearerTokenAuthenticator(accessToken: "old") { completion in
            refreshes.withLock { $0 += 1 }
            completion(.success("new"))
        }
        let outbox = try Outbox(
            directory: makeOutboxFolder(), layer: layer(server, interceptors: [authenticator]),
            options: quickOutboxOptions())
        let log = OutboxEventLog(outbox)
        try outbox.enqueue(indexedPost(4))

        XCTAssertTrue(log.waitForDeliveries(1))
        XCTAssertEqual(refreshes.withLock { $0 }, 1)
        XCTAssertEqual(
            server.recordedRequests.map { $0.header("Authorization") }, ["Bearer old", "Bearer new"])
        XCTAssertEqual(effects.effects.count, 1)
        XCTAssertEqual(log.deadLettered.count, 0)
    }

    func testAnItemForAnotherAccountWaitsForItOrBecomesADeadLetter() throws {
        let server = try startedServer()
        let effects = server.serveIdempotently(created)
        let network = layer(server)
        network.account = "bob"
        let waiting = try Outbox(directory: makeOutboxFolder(), layer: network, options: quickOutboxOptions())
        let waitingLog = OutboxEventLog(waiting)
        try waiting.enqueue(indexedPost(0, account: "alice"))
        waiting.flush()
        waiting.queue.sync {}
        XCTAssertNil(waiting.state.withLock { $0.inFlight }, "never sent with bob's session")
        XCTAssertEqual(server.requestCount, 0)

        network.account = "alice"
        waiting.flush()
        XCTAssertTrue(waitingLog.waitForDeliveries(1))
        XCTAssertEqual(effects.effects.count, 1)

        network.account = "bob"
        var options = quickOutboxOptions()
        options.accountMismatch = .deadLetter
        let strict = try Outbox(directory: makeOutboxFolder(), layer: network, options: options)
        let strictLog = OutboxEventLog(strict)
        try strict.enqueue(indexedPost(1, account: "alice"))
        XCTAssertTrue(strictLog.waitForDeadLetters(1))
        guard case .accountMismatch = try XCTUnwrap(strictLog.deadLettered.first).1 else { return XCTFail() }
        XCTAssertEqual(effects.effects.count, 1)
    }

    func testAnExpiredItemBecomesADeadLetter() throws {
        let clock = TestClock()
        let server = try startedServer()
        server.enqueue(MockResponse(status: 503, headers: ["Retry-After": "20"], text: "busy"))
        var options = OutboxOptions()
        options.timeToLive = 10
        let outbox = try Outbox(
            directory: makeOutboxFolder(), layer: layer(server, clock: clock), options: options)
        let log = OutboxEventLog(outbox)
        try outbox.enqueue(indexedPost(0))
        XCTAssertTrue(clock.wait { $0.waits == [20] })
        clock.advance(by: 11)
        outbox.flush()
        XCTAssertTrue(log.waitForDeadLetters(1))
        guard case .expired = try XCTUnwrap(log.deadLettered.first).1 else { return XCTFail() }
        XCTAssertEqual(server.requestCount, 1)
    }

    func testAThousandItemsFromEightThreadsWhileDeliveringArriveOnceEachInOrder() throws {
        let server = try startedServer()
        let effects = server.serveIdempotently { _ in MockResponse(status: 204) }
        let outbox = try Outbox(
            directory: makeOutboxFolder(), layer: layer(server), options: quickOutboxOptions())
        let log = OutboxEventLog(outbox)
        let enqueued = Locked<[UUID]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for number in 0..<125 {
                let id = try? outbox.enqueue(indexedPost(thread * 1000 + number))
                enqueued.withLock { if let id { $0.append(id) } }
            }
        }
        XCTAssertEqual(enqueued.withLock { $0.count }, 1000)

        XCTAssertTrue(log.waitForDeliveries(1000, timeout: 120))
        let indexes = effects.effects.compactMap { index(of: $0.body) }
        XCTAssertEqual(indexes.count, 1000, "none lost, none doubled")
        XCTAssertEqual(Set(indexes).count, 1000)
        XCTAssertEqual(Set(effects.effects.compactMap { $0.header("Idempotency-Key") }).count, 1000)
        for thread in 0..<8 {
            let own = indexes.filter { $0 / 1000 == thread }
            XCTAssertEqual(own, own.sorted(), "thread \(thread)'s items in the order it enqueued them")
        }
        XCTAssertEqual(log.delivered.map(\.sequence), log.delivered.map(\.sequence).sorted(), "queue order")
    }

    func testTheEventsSequenceTellsTheCountsAndTheDelivery() async throws {
        let server = try startedServer()
        server.serveIdempotently(created)
        let outbox = try Outbox(
            directory: makeOutboxFolder(), layer: layer(server), options: quickOutboxOptions())
        var seen: [String] = []
        let events = outbox.events
        try outbox.enqueue(indexedPost(5))
        for await event in events {
            switch event {
            case .count(let waiting, let deadLetters): seen.append("count \(waiting) \(deadLetters)")
            case .delivered(let item, let response):
                seen.append("delivered \(index(of: item.body) ?? -1) \(response.statusCode)")
            case .deadLettered: seen.append("dead letter")
            }
            if seen.last == "count 0 0", seen.count > 1 { break }
        }
        XCTAssertEqual(seen, ["count 0 0", "count 1 0", "delivered 5 201", "count 0 0"])
    }

    func testARemovedItemIsNeverSentAgainAndTheNextGoesWithoutItsWait() throws {
        let clock = TestClock()
        let server = try startedServer()
        // A 500 without Retry-After: the outbox's own backoff, not a server's pause of the whole origin.
        server.enqueue(MockResponse(status: 500, text: "oops"))
        let effects = server.serveIdempotently(created)
        let outbox = try Outbox(directory: makeOutboxFolder(), layer: layer(server, clock: clock))
        let log = OutboxEventLog(outbox)
        let first = try outbox.enqueue(indexedPost(0))
        try outbox.enqueue(indexedPost(1))
        XCTAssertTrue(clock.wait { $0.waits.count == 1 })

        try outbox.remove(first)
        XCTAssertTrue(log.waitForDeliveries(1), "the wait was the removed item's")
        clock.advance(by: 5)
        outbox.queue.sync {}
        XCTAssertNil(outbox.state.withLock { $0.inFlight })
        XCTAssertEqual(effects.effects.compactMap { index(of: $0.body) }, [1])
        XCTAssertEqual(server.requestCount, 2, "the removed item was not sent again")
        XCTAssertTrue(log.wait { OutboxEventLog.lastCount(in: $0)?.waiting == 0 })
    }

    func testAClosedOutboxRefusesWritesAndFreesItsDirectory() throws {
        let server = try startedServer()
        let folder = try makeOutboxFolder()
        let outbox = try Outbox(directory: folder, layer: layer(server))
        outbox.close()
        XCTAssertThrowsError(try outbox.enqueue(indexedPost(0))) { error in
            guard case .closed = error as? OutboxError else { return XCTFail("\(error)") }
        }
        XCTAssertNoThrow(try Outbox(directory: folder, layer: layer(server)))
    }
}
