import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// ``DummyNetworkLayer`` refuses the headers the real layer refuses, so a presenter test sees the same
/// `.invalidHeader` the app would.
final class DummyHeaderValidationTests: XCTestCase {
    private let ann = Person(name: "Ann")

    func testARequestHeaderTheRealLayerWouldRefuseIsRefusedNotRecorded() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.successResponse = ann
        let got = Captured<Person>()
        network.get(
            urlString: "me", headers: ["X-A\r\nX-Injected": "1"], successHandler: got.success,
            errorHandler: got.failure)
        network.post(
            urlString: "people", body: ann, headers: ["Authorization": "Bearer s3cret\n"],
            successHandler: got.success, errorHandler: got.failure)

        XCTAssertEqual(
            got.errorDescriptions,
            [#"invalidHeader("X-A\r\nX-Injected")"#, #"invalidHeader("Authorization")"#])
        XCTAssertTrue(got.values.isEmpty)
        XCTAssertTrue(network.recordedRequests.isEmpty)
        XCTAssertEqual(
            network.refusedRequests.map(\.description),
            [#"GET me: invalidHeader("X-A\r\nX-Injected")"#, #"POST people: invalidHeader("Authorization")"#])
    }

    func testAnInvalidDefaultHeaderRefusesEveryRequest() {
        let network = DummyNetworkLayer(
            baseURL: URL(string: "https://api.example.com"), defaultHeaders: ["Authorization": "Bearer t\n"])
        network.successResponse = ann
        let got = Captured<Person>()
        network.get(urlString: "me", successHandler: got.success, errorHandler: got.failure)
        network.get(
            urlString: "me", headers: ["Authorization": "Bearer fine"], successHandler: got.success,
            errorHandler: got.failure)

        XCTAssertEqual(got.errorDescriptions, Array(repeating: #"invalidHeader("Authorization")"#, count: 2))
        XCTAssertTrue(network.recordedRequests.isEmpty)
        XCTAssertEqual(network.refusedRequests.map(\.method), [.get, .get])
    }
}
