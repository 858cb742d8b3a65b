import Foundation
import NetworkTestSupport
import XCTest

/// Queued replies go to requests in the order the server records them, however many connections send
/// at once: a test pairs `takeRequest()` with `enqueue` by that order.
final class ConcurrentOrderTests: XCTestCase {
    func testQueuedRepliesFollowTheRecordedOrderAcrossConnections() throws {
        let server = try startedServer()
        let clients = 8
        let replies = NSLock()
        for round in 0..<30 {
            let first = server.requestCount
            server.enqueue(contentsOf: (0..<clients).map { MockResponse(text: "reply \(first + $0)") })
            nonisolated(unsafe) var bodies: [String: String] = [:]
            DispatchQueue.concurrentPerform(iterations: clients) { index in
                guard let client = try? RawClient(port: server.port) else { return }
                client.send("GET /r\(round)c\(index) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let text = String(decoding: client.readToEnd(), as: UTF8.self)
                let body = text.components(separatedBy: "\r\n\r\n").last ?? ""
                replies.withLock { bodies["/r\(round)c\(index)"] = body }
            }
            let mismatched = server.recordedRequests.filter { request in
                request.sequenceNumber >= first && bodies[request.path] != "reply \(request.sequenceNumber)"
            }
            XCTAssertEqual(mismatched.map(\.path), [], "round \(round): answered out of recorded order")
        }
    }
}
