import Foundation
import NetworkTestSupport
import XCTest

@testable import NetworkLayer

/// An outbox across processes killed with `SIGKILL`: every item enqueued before the kill is delivered
/// by a later process, exactly once by the server's count, in order; the directory is claimed across
/// processes and released by the kill.
final class OutboxCrashTests: XCTestCase {
    #if os(macOS) || os(Linux)
        func testItemsEnqueuedBeforeAKillAreDeliveredOnceEachInOrderByLaterProcesses() throws {
            let folder = try makeOutboxFolder()
            let down = MockServer()
            try down.start()
            let unreachable = down.baseURL.absoluteString
            down.stop()

            // 1. 100 POSTs while the server is down, then SIGKILL.
            let enqueuing = try HarnessProcess(["outbox-enqueue", folder.path, unreachable, "100"])
            defer { enqueuing.kill() }
            XCTAssertTrue(enqueuing.wait(for: "ready"), "\(enqueuing.output.suffix(3))")
            XCTAssertThrowsError(
                try Outbox(directory: folder, name: "crash", layer: NetworkLayer(baseURL: down.baseURL)),
                "the directory is claimed across processes"
            ) { error in
                guard case .inUse = error as? OutboxError else { return XCTFail("\(error)") }
            }
            enqueuing.kill()

            // 2. The server up: another process delivers some, and is killed mid-way.
            let server = try startedServer()
            let effects = server.serveIdempotently(created)
            let delivering = try HarnessProcess([
                "outbox-deliver", folder.path, server.baseURL.absoluteString,
            ])
            defer { delivering.kill() }
            XCTAssertTrue(delivering.wait(for: "delivered 30"), "\(delivering.output.suffix(3))")
            delivering.kill()

            // 3. This process delivers the rest.
            let outbox = try Outbox(
                directory: folder, name: "crash",
                layer: NetworkLayer(baseURL: server.baseURL, callbackQueue: .global()),
                options: quickOutboxOptions())
            let log = OutboxEventLog(outbox)
            XCTAssertTrue(log.wait(timeout: 60) { OutboxEventLog.lastCount(in: $0)?.waiting == 0 })

            XCTAssertEqual(
                effects.effects.compactMap { index(of: $0.body) }, Array(0..<100), "once each, in order")
            let keys = effects.effects.compactMap { $0.header("Idempotency-Key") }
            XCTAssertEqual(Set(keys).count, 100)
            XCTAssertTrue(keys.allSatisfy { effects.effectCount(forKey: $0) == 1 })
            XCTAssertEqual(outbox.damagedFiles, [], "a kill mid-write leaves only a temporary file, removed")
        }

        func testAKillWhileEnqueuingLosesNothingAcknowledgedAndNoOtherItem() throws {
            let folder = try makeOutboxFolder()
            let down = MockServer()
            try down.start()
            let unreachable = down.baseURL.absoluteString
            down.stop()
            let enqueuing = try HarnessProcess(["outbox-enqueue", folder.path, unreachable, "5000"])
            defer { enqueuing.kill() }
            XCTAssertTrue(enqueuing.wait(for: "enqueued 200"), "\(enqueuing.output.suffix(3))")
            // Killed while it writes: the item being written is in a temporary file, or renamed already.
            enqueuing.kill()
            let acknowledged = enqueuing.output.filter { $0.hasPrefix("enqueued ") }.count

            let server = try startedServer()
            let effects = server.serveIdempotently(created)
            let outbox = try Outbox(
                directory: folder, name: "crash",
                layer: NetworkLayer(baseURL: server.baseURL, callbackQueue: .global()),
                options: quickOutboxOptions())
            let log = OutboxEventLog(outbox)
            XCTAssertTrue(log.wait(timeout: 60) { OutboxEventLog.lastCount(in: $0)?.waiting == 0 })

            let indexes = effects.effects.compactMap { index(of: $0.body) }
            XCTAssertEqual(indexes, Array(0..<indexes.count), "a prefix, in order, once each")
            XCTAssertGreaterThanOrEqual(indexes.count, acknowledged, "every acknowledged item")
            XCTAssertLessThanOrEqual(indexes.count, acknowledged + 1, "at most the one being acknowledged")
            XCTAssertEqual(outbox.damagedFiles, [])
            let leftovers = try FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent("crash.outbox").path)
            XCTAssertEqual(leftovers, ["lock"], "the temporary file went at the open, the items on delivery")
        }
    #endif
}
