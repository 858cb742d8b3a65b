import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A stream's task carries its request's priority, as every other request's task does, so a stream
/// waiting for its server can be moved ahead or behind.
final class StreamPriorityTests: XCTestCase {
    func testAStreamsTaskStartsAtItsRequestsPriorityAndTakesANewOne() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 200, text: "one chunk"))
        let network = NetworkLayer(baseURL: server.baseURL, cache: nil)
        var request = NetworkRequest<Data>(urlString: "events")
        request.priority = .userInitiated
        let ended = expectation(description: "the stream ended")

        let task = network.stream(
            request, as: .chunks, eventHandler: { _ in }, completionHandler: { _ in ended.fulfill() })

        XCTAssertEqual(task.priority, .userInitiated)
        task.priority = .prefetch
        XCTAssertEqual(task.priority, .prefetch)
        wait(for: [ended], timeout: 10)
    }
}
