import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// The real layer against MockServer over real loopback sockets.
final class SmokeTests: XCTestCase {
    func testGetThroughRealSockets() throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        server.enqueue(try .json(["hello"]))
        let network = NetworkLayer(baseURL: server.baseURL, sessionConfiguration: .ephemeral)
        let done = expectation(description: "answered")
        var received: [String]?
        network.get(
            urlString: "greeting",
            successHandler: { (value: [String]) in
                received = value
                done.fulfill()
            },
            errorHandler: { error in
                XCTFail("\(error)")
                done.fulfill()
            })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(received, ["hello"])
        XCTAssertEqual(server.takeRequest(timeout: 1)?.path, "/greeting")
    }
}
