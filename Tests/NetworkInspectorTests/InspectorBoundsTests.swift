import Foundation
import XCTest

@testable import NetworkInspector
@testable import NetworkLayer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Memory stays bounded: whatever the traffic, the inspector holds N requests of at most B body bytes each.
final class InspectorBoundsTests: XCTestCase {
    func testTwoThousandRequestsLeaveNRecordsOfAtMostBBodyBytes() throws {
        let inspector = NetworkInspector(
            configuration: .init(maximumRequests: 50, maximumBodyBytes: 100), serving: true)
        let body = Data(repeating: UInt8(ascii: "x"), count: 10_000)
        for index in 0..<2_000 {
            Self.send(index, body: body, to: inspector)
        }

        let snapshot = inspector.store.snapshot()
        XCTAssertEqual(snapshot.requests.count, 50)
        XCTAssertEqual(snapshot.dropped, 2_000 - 50)
        for record in snapshot.requests {
            XCTAssertEqual(record.requestBody?.kept.count, 100)
            XCTAssertEqual(record.responseBody?.kept.count, 100)
            XCTAssertEqual(record.responseBody?.size, 10_000)
        }
        // Bodies, headers, curl commands and URLs together: a few hundred bytes per record.
        let kept = snapshot.requests.reduce(0) { $0 + $1.keptBytes }
        XCTAssertLessThan(kept, 50 * 1_000)
    }

    func testAnInertInspectorRecordsNothing() {
        let inspector = NetworkInspector(configuration: .init(), serving: false)
        Self.send(1, body: Data("x".utf8), to: inspector)

        XCTAssertFalse(inspector.observesAttempts)
        XCTAssertEqual(inspector.store.snapshot().requests.count, 0)
    }

    func testAReleaseBuildsInspectorOpensNoSocket() throws {
        let before = Self.openSockets()
        let inspector = NetworkInspector(configuration: .init(), serving: false)
        XCTAssertThrowsError(try inspector.start()) {
            XCTAssertEqual($0 as? NetworkInspector.StartError, .unavailable)
        }
        XCTAssertNil(inspector.url)
        XCTAssertEqual(Self.openSockets(), before)
        // The same count sees the socket a serving inspector opens.
        let serving = NetworkInspector(configuration: .init(), serving: true)
        _ = try serving.start()
        XCTAssertEqual(Self.openSockets().count, before.count + 1)
        serving.stop()
    }

    /// The process's open sockets, by descriptor (Linux's `/proc/self/fd` links to `socket:[inode]`).
    static func openSockets() -> Set<String> {
        let folder = "/proc/self/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return Set(
            names.filter {
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\($0)"))?
                    .hasPrefix("socket:") ?? false
            })
    }

    /// One request's events, as a layer sends them.
    static func send(_ index: Int, body: Data, to inspector: NetworkInspector) {
        let url = URL(string: "https://api.example.com/items/\(index)")!
        let request = MonitoredRequest(method: .post, url: url)
        let attempt = MonitoredAttempt(request: request, number: 1)
        var urlRequest = URLRequest(url: url)
        urlRequest.httpMethod = "POST"
        urlRequest.httpBody = body
        inspector.didBuild(urlRequest, for: attempt)
        let response = HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: [:])!
        inspector.didReceive(response, body: body, for: attempt)
        let metrics = RequestMetrics(
            startDate: Date(), duration: 0.001, timeToFirstByte: 0.001, bytesSent: body.count,
            bytesReceived: body.count, attempts: 1)
        let reply = NetworkResponse(
            value: body, statusCode: 200, headers: ResponseHeaders([:]), url: url, data: body)
        inspector.didFinish(request, with: .success(reply), metrics: metrics)
    }
}
