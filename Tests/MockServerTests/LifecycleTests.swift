import Foundation
import NetworkTestSupport
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Start, stop, deinit, descriptor hygiene and concurrent clients.
final class LifecycleTests: XCTestCase {
    private static let session = TestSessions.make()

    override class func tearDown() {
        session.finishTasksAndInvalidate()
        super.tearDown()
    }

    func testPortAndBaseURL() throws {
        let server = MockServer()
        XCTAssertEqual(server.port, 0)
        XCTAssertFalse(server.isRunning)

        try server.start()
        defer { server.stop() }

        XCTAssertTrue(server.isRunning)
        XCTAssertGreaterThan(server.port, 0)
        XCTAssertEqual(server.baseURL.absoluteString, "http://127.0.0.1:\(server.port)")
        XCTAssertEqual(server.url("/a?b=c")?.absoluteString, "http://127.0.0.1:\(server.port)/a?b=c")
        let port = server.port
        try server.start()
        XCTAssertEqual(server.port, port, "start() on a running server does nothing")
    }

    func testStopIsIdempotentAndReleasesThePort() throws {
        let server = MockServer()
        try server.start()
        let port = server.port
        let client = try RawClient(port: port)
        client.send("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        XCTAssertEqual(client.readResponse()?.status, 404)

        server.stop()
        server.stop()

        XCTAssertFalse(server.isRunning)
        XCTAssertTrue(client.serverClosed(), "stop() closes open connections")
        XCTAssertThrowsError(try RawClient(port: port), "nothing listens any more")
        XCTAssertTrue(canBind(port: port), "the port can be bound again")
    }

    func testStartAfterStopServesAgainAndKeepsTheRecord() throws {
        let server = MockServer(handler: { _ in MockResponse(text: "up") })
        try server.start()
        _ = try RawClient(port: server.port).sendAndRead("GET /1 HTTP/1.1\r\nHost: x\r\n\r\n")
        server.stop()
        try server.start()
        defer { server.stop() }

        XCTAssertEqual(
            try RawClient(port: server.port).sendAndRead("GET /2 HTTP/1.1\r\nHost: x\r\n\r\n")?.text, "up")
        XCTAssertEqual(server.recordedRequests.map(\.path), ["/1", "/2"])
    }

    func testDeinitStopsTheServer() throws {
        var server: MockServer? = MockServer()
        try server?.start()
        let port = try XCTUnwrap(server?.port)
        let client = try RawClient(port: port)
        XCTAssertEqual(client.sendAndRead("GET / HTTP/1.1\r\nHost: x\r\n\r\n")?.status, 404)

        server = nil

        XCTAssertTrue(client.serverClosed())
        XCTAssertThrowsError(try RawClient(port: port))
    }

    func testManyStartStopCyclesLeakNoDescriptors() throws {
        #if os(Linux)
            func openDescriptors() throws -> Int {
                try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
            }
            let request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
            let warmUp = MockServer()
            try warmUp.start()
            warmUp.stop()
            let before = try openDescriptors()
            var lastPort = 0

            for cycle in 0..<200 {
                let server = MockServer(handler: { _ in MockResponse(text: "ok") })
                try server.start()
                lastPort = server.port
                if cycle % 4 == 0 {
                    // Leave a kept-alive connection open across stop(): stop() must close it.
                    let client = try RawClient(port: server.port)
                    XCTAssertEqual(client.sendAndRead(request)?.text, "ok")
                    server.stop()
                    XCTAssertTrue(client.serverClosed())
                } else {
                    server.stop()
                }
            }

            XCTAssertLessThanOrEqual(try openDescriptors(), before)
            XCTAssertTrue(canBind(port: lastPort))
        #else
            throw XCTSkip("counts /proc/self/fd, which only Linux has")
        #endif
    }

    func testSixtyFourConcurrentClientsEachGetTheirOwnReply() throws {
        let clients = 64
        let barrier = Barrier(count: clients)
        let server = try startedServer()
        server.handler = { request in
            // Hold every reply until all 64 requests are in: proves they are served at once.
            let together = barrier.arriveAndWait(timeout: 10)
            return MockResponse(text: "\(request.queryValue("id") ?? "?") \(together)")
        }
        let replies = ReplyCollector()
        let done = DispatchGroup()

        for id in 0..<clients {
            guard let url = server.url("/echo?id=\(id)") else { return XCTFail("bad URL") }
            done.enter()
            Self.session.dataTask(with: url) { data, _, _ in
                replies.add(id: id, text: String(decoding: data ?? Data(), as: UTF8.self))
                done.leave()
            }.resume()
        }

        XCTAssertEqual(done.wait(timeout: .now() + 30), .success)
        XCTAssertEqual(
            replies.all, Dictionary(uniqueKeysWithValues: (0..<clients).map { ($0, "\($0) true") }))
        XCTAssertEqual(server.requestCount, clients)
        XCTAssertEqual(Set(server.recordedRequests.map(\.connectionID)).count, clients)
    }

    private func canBind(port: Int) -> Bool {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        defer { close(fd) }
        var one: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        var address = RawClient.loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}

extension RawClient {
    /// Sends `request` and reads one response.
    func sendAndRead(_ request: String) -> RawResponse? {
        send(request)
        return readResponse()
    }
}

/// Lets `count` threads wait for each other; thread-safe through its condition.
private final class Barrier: @unchecked Sendable {
    private let condition = NSCondition()
    private let count: Int
    private var arrived = 0

    init(count: Int) { self.count = count }

    /// Waits until `count` threads have arrived; `false` if `timeout` passed first.
    func arriveAndWait(timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        while arrived < count {
            if !condition.wait(until: deadline) { return arrived >= count }
        }
        return true
    }
}

/// Collects replies from URLSession's queue; thread-safe through its lock.
private final class ReplyCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var replies: [Int: String] = [:]

    func add(id: Int, text: String) { lock.withLock { replies[id] = text } }
    var all: [Int: String] { lock.withLock { replies } }
}
