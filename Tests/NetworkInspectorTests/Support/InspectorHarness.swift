import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

@testable import NetworkInspector

/// A real layer against a MockServer, watched by an inspector that records (as in a `DEBUG` build) and by a
/// finish counter after it.
final class InspectorHarness {
    let server: MockServer
    let inspector: NetworkInspector
    let counter = FinishCounter()
    let network: NetworkLayer

    init(
        configuration: NetworkInspector.Configuration = .init(), serving: Bool = true,
        label: String? = nil, retryPolicy: RetryPolicy = .none, cache: ResponseCache? = nil,
        handler: MockServer.Handler? = nil
    ) throws {
        server = MockServer(handler: handler)
        try server.start()
        let inspector = NetworkInspector(configuration: configuration, serving: serving)
        self.inspector = inspector
        let monitor = label.map { inspector.monitor(label: $0) } ?? inspector
        network = NetworkLayer(
            baseURL: server.baseURL, callbackQueue: DispatchQueue(label: "test.callbacks"),
            retryPolicy: retryPolicy, monitors: [monitor, counter], cache: cache)
    }

    /// Sends `count` GETs to `path`, one after another, and waits until the inspector recorded each.
    func get(
        _ path: String, count: Int = 1, headers: [String: String] = [:], file: StaticString = #filePath,
        line: UInt = #line
    ) {
        for _ in 0..<count {
            let done = XCTestExpectation(description: "GET \(path)")
            network.send(NetworkRequest<Data>(urlString: path, headers: headers)) { _ in done.fulfill() }
            XCTAssertEqual(XCTWaiter().wait(for: [done], timeout: 10), .completed, file: file, line: line)
        }
    }

    /// Waits until `count` requests have finished for the monitors.
    func waitForRecords(_ count: Int, file: StaticString = #filePath, line: UInt = #line) {
        let result = XCTWaiter().wait(for: [counter.expectation(finishing: count)], timeout: 10)
        XCTAssertEqual(result, .completed, "the monitors heard fewer requests finish", file: file, line: line)
    }

    /// The snapshot as the page reads it.
    func snapshot() throws -> [String: Any] {
        let data = InspectorEvent.encoded(inspector.store.snapshot())
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func requests() throws -> [[String: Any]] {
        try XCTUnwrap(snapshot()["requests"] as? [[String: Any]])
    }

    deinit {
        server.stop()
    }
}
