import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// A server whose replies wait until the test opens its gate, so requests can pile up behind one.
final class GatedServer: @unchecked Sendable {
    let server: MockServer
    private let gate = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var isOpen = false

    init(in test: XCTestCase, reply: @escaping @Sendable (MockServerRequest) throws -> MockResponse) throws {
        server = try MockServer.started(in: test)
        let gate = gate
        server.handler = { [weak self] request in
            // real wait: the reply is held until the test opens the gate (bounded by the timeout).
            if self?.lock.withLock({ self?.isOpen }) != true { _ = gate.wait(timeout: .now() + 10) }
            return try reply(request)
        }
    }

    /// Lets one held reply go.
    func releaseOne() {
        gate.signal()
    }

    /// Lets every held reply and every later one go.
    func open() {
        lock.withLock { isOpen = true }
        for _ in 0..<200 { gate.signal() }
    }
}

/// Each caller's outcomes, by index: exactly one each is the promise.
final class CallerOutcomes<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var outcomes: [Int: [Result<Value, NetworkError>]] = [:]
    let expectation: XCTestExpectation

    init(_ expectation: XCTestExpectation, count: Int) {
        self.expectation = expectation
        expectation.expectedFulfillmentCount = count
    }

    func record(_ index: Int, _ result: Result<Value, NetworkError>) {
        lock.withLock { outcomes[index, default: []].append(result) }
        expectation.fulfill()
    }

    func handlers(_ index: Int) -> (
        success: (NetworkResponse<Value>) -> Void, failure: (NetworkError) -> Void
    ) {
        ({ self.record(index, .success($0.value)) }, { self.record(index, .failure($0)) })
    }

    /// How many outcomes each caller got.
    var counts: [Int] {
        lock.withLock { (0..<(outcomes.keys.max().map { $0 + 1 } ?? 0)).map { outcomes[$0]?.count ?? 0 } }
    }
    var all: [Int: [Result<Value, NetworkError>]] { lock.withLock { outcomes } }
}
