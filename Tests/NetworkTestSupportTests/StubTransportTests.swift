import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

final class StubTransportTests: XCTestCase {
    func testTwoTransportsKeepTheirOwnStubsAndRecordings() {
        let first = StubTransport()
        let second = StubTransport()
        first.stub(.get, .any, with: .json(["first"]))
        second.stub(.get, .any, with: .json(["second"]))
        let firstLayer = first.makeNetworkLayer(callbackQueue: DispatchQueue(label: "a"))
        let secondLayer = second.makeNetworkLayer(callbackQueue: DispatchQueue(label: "b"))
        let done = expectation(description: "both answered")
        done.expectedFulfillmentCount = 2
        let answers = Answers()
        firstLayer.get(
            urlString: "https://one.example.com/x",
            successHandler: { (value: [String]) in
                answers.set("one", value)
                done.fulfill()
            },
            errorHandler: {
                XCTFail("\($0)")
                done.fulfill()
            })
        secondLayer.get(
            urlString: "https://two.example.com/x",
            successHandler: { (value: [String]) in
                answers.set("two", value)
                done.fulfill()
            },
            errorHandler: {
                XCTFail("\($0)")
                done.fulfill()
            })
        wait(for: [done], timeout: 10)
        XCTAssertEqual(answers.values, ["one": ["first"], "two": ["second"]])
        XCTAssertEqual(first.recordedRequests.map(\.url.host), ["one.example.com"])
        XCTAssertEqual(second.recordedRequests.map(\.url.host), ["two.example.com"])
    }
}

final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String: [String]] = [:]
    func set(_ key: String, _ value: [String]) { lock.withLock { storage[key] = value } }
    var values: [String: [String]] { lock.withLock { storage } }
}
