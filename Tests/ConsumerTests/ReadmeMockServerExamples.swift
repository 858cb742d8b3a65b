import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

// The README's MockServer sample, verbatim (see ReadmeSyncTests). It runs as a test of this target.

final class EmployeesEndToEndTests: XCTestCase {
    func testTheLayerTalksToARealServer() throws {
        let server = MockServer()
        try server.start()
        defer { server.stop() }
        server.enqueue(try .json([Todo(id: 1, title: "Write tests")]))
        server.enqueue(MockResponse(status: 503).delayed(beforeHeaders: 0.1))

        let network = NetworkLayer(baseURL: server.baseURL, timeout: 5)
        let answered = expectation(description: "answered")
        answered.expectedFulfillmentCount = 2
        var todos: [Todo]?
        var failure: NetworkError?
        network.get(
            urlString: "todos", query: ["page": "1"],
            successHandler: { (value: [Todo]) in
                todos = value
                answered.fulfill()
                network.get(
                    urlString: "todos", successHandler: { (_: [Todo]) in answered.fulfill() },
                    errorHandler: { error in
                        failure = error
                        answered.fulfill()
                    })
            },
            errorHandler: { error in XCTFail("\(error)") })
        wait(for: [answered], timeout: 10)

        XCTAssertEqual(todos?.count, 1)
        XCTAssertEqual(failure?.statusCode, 503)
        let first = try XCTUnwrap(server.takeRequest(timeout: 1))
        XCTAssertEqual(first.path, "/todos")
        XCTAssertEqual(first.queryValue("page"), "1")
    }
}
