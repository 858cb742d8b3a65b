import Foundation
import LoopbackHTTP
import NetworkLayer
import XCTest

@testable import NetworkInspector

#if canImport(Glibc)
    import Glibc
#endif

/// Hostile input and slow tabs: the server's limits hold, and a tab that stops reading can't grow memory.
final class InspectorHardeningTests: XCTestCase {
    private func server(_ limits: LoopbackLimits, store: InspectorStore, fanOut: EventFanOut) throws
        -> InspectorServer
    {
        try InspectorServer(limits: limits, fanOut: fanOut) { access in
            InspectorRoutes(
                access: access, store: store, clear: {}, page: { snapshot, _ in snapshot })
        }
    }

    func testALongRequestLineAndALargeHeadAreRefused() throws {
        let server = try server(
            LoopbackLimits(), store: InspectorStore(maximumRequests: 5, maximumBodyBytes: 5),
            fanOut: EventFanOut())
        defer { server.stop() }
        let long = RawClient(port: server.port)
        long?.send(
            "GET /?token=\(String(repeating: "a", count: 10_000)) HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\r\n"
        )
        XCTAssertEqual(RawClient.status(long?.read() ?? ""), 414)
        let large = RawClient(port: server.port)
        let fields = (0..<1_000).map { "X-Filler-\($0): \(String(repeating: "b", count: 40))\r\n" }.joined()
        large?.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\n\(fields)\r\n")
        XCTAssertEqual(RawClient.status(large?.read() ?? ""), 431)
        let body = RawClient(port: server.port)
        body?.send(
            "POST /api/clear HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nContent-Length: 100000000\r\n\r\n")
        XCTAssertEqual(RawClient.status(body?.read() ?? ""), 413)
    }

    func testASlowRequestIsCutOffAndConnectionsAreCounted() throws {
        var limits = LoopbackLimits()
        limits.requestTimeout = 0.3
        limits.maxConnections = 2
        let server = try server(
            limits, store: InspectorStore(maximumRequests: 5, maximumBodyBytes: 5), fanOut: EventFanOut())
        defer { server.stop() }
        let slow = try XCTUnwrap(RawClient(port: server.port))
        slow.send("GET / HTTP/1.1\r\n")
        XCTAssertEqual(RawClient.status(slow.read(timeout: 5)), 408)

        let first = RawClient(port: server.port)
        let second = RawClient(port: server.port)
        first?.send("G")
        second?.send("G")
        // Both busy: an idle one would give its place to the third.
        let busy = expectation(
            for: NSPredicate { _, _ in server.openConnections == 2 && server.idleConnections == 0 },
            evaluatedWith: nil)
        wait(for: [busy], timeout: 5)
        let third = try XCTUnwrap(RawClient(port: server.port))
        XCTAssertEqual(third.read(timeout: 2), "", "a third connection is closed unanswered")
        XCTAssertLessThanOrEqual(server.openConnections, 2)
    }

    func testATabThatNeverReadsLosesEventsThenResyncsWithBoundedMemory() throws {
        let store = InspectorStore(maximumRequests: 10, maximumBodyBytes: 10)
        let fanOut = EventFanOut()
        let server = try server(LoopbackLimits(), store: store, fanOut: fanOut)
        defer { server.stop() }
        let tab = try XCTUnwrap(RawClient(port: server.port))
        tab.get("/api/events?token=\(server.access.token)", host: "127.0.0.1:\(server.port)")
        let open = expectation(for: NSPredicate { _, _ in fanOut.count == 1 }, evaluatedWith: nil)
        wait(for: [open], timeout: 5)

        // 20 MB of events against a queue of 1 MiB and a few socket buffers.
        let big = String(repeating: "x", count: 10_000)
        for index in 0..<2_000 {
            var record = RequestRecord(
                id: "\(index)", layer: "", method: "GET", url: big, start: 0, account: nil)
            record.status = 200
            fanOut.publish(.request(record))
        }
        let stream = try XCTUnwrap(fanOut.tabs.first)
        XCTAssertGreaterThan(stream.dropped, 0)
        XCTAssertLessThanOrEqual(stream.peakBytes, LoopbackLimits().maxQueuedBytes)

        // Reading again, the tab is told to resync before any newer event.
        let read = tab.read(until: "event: resync", timeout: 60)
        XCTAssertTrue(
            read.contains("event: resync\ndata: {}\n\n"),
            "\(read.utf8.count) bytes: \(read.prefix(300)) … \(read.suffix(300))")
        XCTAssertLessThan(read.components(separatedBy: "event: request").count - 1, 2_000)
    }

    func testATabThatStopsReadingIsDisconnectedAfterTheSendTimeoutAndItsPlaceReused() throws {
        var limits = LoopbackLimits()
        limits.sendTimeout = 0.05
        limits.maxConnections = 1
        let fanOut = EventFanOut()
        let server = try server(
            limits, store: InspectorStore(maximumRequests: 5, maximumBodyBytes: 5), fanOut: fanOut)
        defer { server.stop() }
        let host = "127.0.0.1:\(server.port)"
        let tab = try XCTUnwrap(RawClient(port: server.port))
        tab.get("/api/events?token=\(server.access.token)", host: host)
        let open = expectation(for: NSPredicate { _, _ in fanOut.count == 1 }, evaluatedWith: nil)
        wait(for: [open], timeout: 5)

        // Events until the tab's queue and the kernel's buffers are full: the tab reads none of them.
        // Without the timeout it stays connected, holding the only place, for as long as it lives.
        var record = RequestRecord(
            id: "0", layer: "", method: "GET", url: String(repeating: "x", count: 10_000), start: 0,
            account: nil)
        record.status = 200
        let givingUp = Date(timeIntervalSinceNow: 10)
        while fanOut.count == 1, Date() < givingUp { fanOut.publish(.request(record)) }
        XCTAssertEqual(fanOut.count, 0, "disconnected and forgotten")

        let freed = expectation(for: NSPredicate { _, _ in server.openConnections == 0 }, evaluatedWith: nil)
        wait(for: [freed], timeout: 5)
        let next = try XCTUnwrap(RawClient(port: server.port))
        next.get("/api/snapshot?token=\(server.access.token)", host: host)
        XCTAssertEqual(RawClient.status(next.read()), 200, "the place is served again")
    }
}
