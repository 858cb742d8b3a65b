import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

final class DeliveryTests: PipelineTestCase {
    func testHandlersRunOnACustomCallbackQueue() {
        let queue = DispatchQueue(label: "custom")
        QueueMark.mark(queue, as: "custom")
        let network = stubs.makeNetworkLayer(
            baseURL: URL(string: "https://api.example.com"), callbackQueue: queue)
        stubs.stub(.get, "https://api.example.com/ok", with: .json(["a"]))
        outcome(of: [String].self, on: queue, queueName: "custom") {
            network.get(urlString: "ok", successHandler: $0.success, errorHandler: $0.failure)
        }
        outcome(of: [String].self, on: queue, queueName: "custom") {
            network.get(urlString: "not stubbed", successHandler: $0.success, errorHandler: $0.failure)
        }
        outcome(of: [String].self, on: queue, queueName: "custom") {
            network.get(urlString: "ftp://x", successHandler: $0.success, errorHandler: $0.failure)
        }
    }

    func testDecodingRunsOffTheCallbackQueueForSmallAndLargeBodies() {
        for size in [10, 200_000] {
            stubs.stub(.get, .any, with: .json(QueueProbe.payload(size: size)))
            let probe = outcome(of: QueueProbe.self) {
                network.get(urlString: "p", successHandler: $0.success, errorHandler: $0.failure)
            }?.value
            XCTAssertNotNil(probe, "size \(size)")
            XCTAssertEqual(probe?.decodedOnQueue, "none", "size \(size) decoded on a marked queue")
        }
    }

    func testLargeRepliesDecodeInParallel() {
        let rendezvous = Rendezvous(parties: 2)
        let decoder = JSONDecoder()
        decoder.userInfo[Rendezvous.key] = rendezvous
        let network = stubs.makeNetworkLayer(
            baseURL: URL(string: "https://api.example.com"), decoder: decoder)
        stubs.stub(.get, .any, with: .json(QueueProbe.payload(size: 100_000)))
        let done = expectation(description: "both decoded")
        done.expectedFulfillmentCount = 2
        var met: [Bool] = []
        for _ in 0..<2 {
            network.get(
                urlString: "big",
                successHandler: { (probe: QueueProbe) in
                    met.append(probe.metOthers)
                    done.fulfill()
                }, errorHandler: { XCTFail("\($0)") })
        }
        wait(for: [done], timeout: 20)
        XCTAssertEqual(met, [true, true], "each decode waited for the other: they ran one after another")
    }

    func testCancelDuringTheRequestDeliversCancelledOnce() {
        stubs.stub(.get, .any, with: .json(["late"], delay: 30))
        let started = Date()
        let error = outcome(of: [String].self) {
            let task = network.get(urlString: "slow", successHandler: $0.success, errorHandler: $0.failure)
            task.cancel()
            task.cancel()
            return task
        }?.error
        guard case .cancelled? = error else { return XCTFail("gave \(String(describing: error))") }
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "cancel waited for the reply")
    }

    func testCancelFromAnotherQueueWhileWaiting() {
        stubs.stub(.get, .any, with: .json(["late"], delay: 30))
        let error = outcome(of: [String].self) { recorder in
            let task = network.get(
                urlString: "slow", successHandler: recorder.success, errorHandler: recorder.failure)
            DispatchQueue.global().async { task.cancel() }
            return task
        }?.error
        guard case .cancelled? = error else { return XCTFail("gave \(String(describing: error))") }
    }

    func testCancelAfterDeliveryDoesNothing() {
        stubs.stub(.get, .any, with: .json(["a"]))
        let delivered = expectation(description: "delivered")
        var calls: [String] = []
        let task = network.get(
            urlString: "a",
            successHandler: { (value: [String]) in
                calls.append("success")
                delivered.fulfill()
            },
            errorHandler: { error in
                calls.append("\(error)")
                delivered.fulfill()
            })
        wait(for: [delivered], timeout: 10)
        task.cancel()
        let drained = expectation(description: "main drained")
        DispatchQueue.main.async { drained.fulfill() }
        wait(for: [drained], timeout: 5)
        XCTAssertEqual(calls, ["success"])
    }

    func testRacingCancelsAndRepliesStillGiveExactlyOneHandlerEach() {
        let queue = DispatchQueue(label: "race")
        let network = stubs.makeNetworkLayer(
            baseURL: URL(string: "https://api.example.com"), callbackQueue: queue)
        stubs.stub(.get, .any, with: .json(["a"]))
        let count = 300
        let counts = LockedCounts(count)
        let all = expectation(description: "every request answered")
        all.expectedFulfillmentCount = count
        DispatchQueue.concurrentPerform(iterations: count) { index in
            let task = network.get(
                urlString: "r/\(index)",
                successHandler: { (_: [String]) in if counts.add(index) == 1 { all.fulfill() } },
                errorHandler: { _ in if counts.add(index) == 1 { all.fulfill() } })
            if index.isMultiple(of: 2) { DispatchQueue.global().async { task.cancel() } }
        }
        wait(for: [all], timeout: 30)
        let drained = expectation(description: "drained")
        queue.async { drained.fulfill() }
        wait(for: [drained], timeout: 5)
        XCTAssertEqual(counts.snapshot, Array(repeating: 1, count: count))
    }

}

/// A reply type that notes which marked queue decoded it, and can meet other decodes.
struct QueueProbe: Decodable {
    let decodedOnQueue: String
    let metOthers: Bool

    struct Payload: Encodable {
        let text: String
    }

    static func payload(size: Int) -> Payload { Payload(text: String(repeating: "x", count: size)) }

    init(from decoder: any Decoder) throws {
        decodedOnQueue = QueueMark.current ?? "none"
        metOthers = (decoder.userInfo[Rendezvous.key] as? Rendezvous)?.arriveAndWait() ?? false
    }
}

/// Lets decodes wait for one another, with a timeout, to prove they run at the same time.
final class Rendezvous: @unchecked Sendable {
    static let key = CodingUserInfoKey(rawValue: "rendezvous")!
    private let condition = NSCondition()
    private var arrived = 0
    private let parties: Int

    init(parties: Int) { self.parties = parties }

    func arriveAndWait(timeout: TimeInterval = 5) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        arrived += 1
        condition.broadcast()
        let deadline = Date(timeIntervalSinceNow: timeout)
        while arrived < parties {
            if !condition.wait(until: deadline) { return false }
        }
        return true
    }
}

final class LockedCounts: @unchecked Sendable {
    private let lock = NSLock()
    private var counts: [Int]
    init(_ count: Int) { counts = Array(repeating: 0, count: count) }
    func add(_ index: Int) -> Int {
        lock.withLock {
            counts[index] += 1
            return counts[index]
        }
    }
    var snapshot: [Int] { lock.withLock { counts } }
}
