import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

extension XCTestCase {
    /// Opens a kept-alive connection from `network` to the echoing `server` with one request, then has the
    /// server read the next request on it and drop it without answering, as a server that closed an idle
    /// connection would: libcurl then sends that request again by itself on a new connection.
    func dropNextRequestOnAKeptAliveConnection(
        of network: NetworkLayer, to server: MockServer, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertNotNil(
            try outcome(of: Echo.self, file: file, line: line) { recorder in
                network.get(
                    urlString: "warm-up", successHandler: recorder.success, errorHandler: recorder.failure)
            }?.get(), file: file, line: line)
        server.enqueue(MockResponse(text: "never sent").withFault(.disconnectAfterRequest))
    }
}
