import Foundation
import NetworkLayer
import NetworkTestSupport
import TestKit
import XCTest

/// `deliversImmediately` (issue 31): handlers run where the outcome is settled, not on `callbackQueue`;
/// by default they run on `callbackQueue`, never inside the method that started the request.
final class ImmediateDeliveryTests: XCTestCase {
    private let stubs = StubTransport()
    private let callbacks = QueueMark.makeQueue("callbacks")

    private func makeNetwork(immediate: Bool) -> NetworkLayer {
        stubs.stub(.get, "https://api.example.com/items", with: .json(["a", "b"]))
        stubs.stub(.get, "https://api.example.com/slow", with: .json(["late"], delay: 30))
        return stubs.makeNetworkLayer(
            baseURL: URL(string: "https://api.example.com"), callbackQueue: callbacks,
            deliversImmediately: immediate)
    }

    /// Where the success handler of a reply from the transport runs, and whether it got the value.
    private func replyHandlerQueue(immediate: Bool) -> (queue: String?, value: [String]?) {
        let network = makeNetwork(immediate: immediate)
        XCTAssertEqual(network.deliversImmediately, immediate)
        let done = expectation(description: "delivered")
        let got = Locked<(String?, [String]?)>((nil, nil))
        network.get(
            urlString: "items",
            successHandler: { (items: [String]) in
                got.withLock { $0 = (QueueMark.current, items) }
                done.fulfill()
            },
            errorHandler: { XCTFail("\($0)") })
        wait(for: [done], timeout: 10)
        return got.withLock { $0 }
    }

    func testByDefaultTheHandlerRunsOnTheCallbackQueue() {
        let (queue, value) = replyHandlerQueue(immediate: false)
        XCTAssertEqual(queue, "callbacks")
        XCTAssertEqual(value, ["a", "b"])
    }

    func testImmediateDeliveryRunsTheHandlerWhereTheReplyWasSettled() {
        let (queue, value) = replyHandlerQueue(immediate: true)
        XCTAssertNil(queue, "hopped to the callback queue")
        XCTAssertEqual(value, ["a", "b"])
    }

    /// A cancel settles the outcome on the cancelling thread: delivered there, inside `cancel()`.
    func testImmediateDeliveryRunsACancelsHandlerInsideCancel() {
        let network = makeNetwork(immediate: true)
        let canceller = QueueMark.makeQueue("canceller")
        let done = expectation(description: "delivered")
        let got = Locked<[String?]>([])
        let task = network.get(
            urlString: "slow", successHandler: { (_: [String]) in XCTFail("succeeded") },
            errorHandler: { error in
                guard case .cancelled = error else { return XCTFail("gave \(error)") }
                got.withLock { $0.append(QueueMark.current) }
                done.fulfill()
            })
        canceller.sync {
            task.cancel()
            XCTAssertEqual(got.withLock { $0 }, ["canceller"], "not delivered inside cancel()")
        }
        wait(for: [done], timeout: 5)
    }

    func testByDefaultACancelsHandlerRunsLaterOnTheCallbackQueue() {
        let network = makeNetwork(immediate: false)
        let done = expectation(description: "delivered")
        let got = Locked<[String?]>([])
        let task = network.get(
            urlString: "slow", successHandler: { (_: [String]) in XCTFail("succeeded") },
            errorHandler: { _ in
                got.withLock { $0.append(QueueMark.current) }
                done.fulfill()
            })
        // On the callback queue, which can't run the handler before this block ends: only a delivery
        // inside `cancel()` would be seen here.
        callbacks.sync {
            task.cancel()
            XCTAssertEqual(got.withLock { $0 }, [], "delivered inside cancel()")
        }
        wait(for: [done], timeout: 5)
        XCTAssertEqual(got.withLock { $0 }, ["callbacks"])
    }

    /// A request the layer refuses is settled inside the request method: immediate delivery runs its
    /// handler before the method returns, the default never does.
    func testARefusedRequestIsDeliveredBeforeTheMethodReturnsOnlyWhenImmediate() {
        for immediate in [true, false] {
            let network = makeNetwork(immediate: immediate)
            let done = expectation(description: "delivered")
            let ran = Locked(false)
            // As above: the callback queue is held until the method returned and the check is made.
            callbacks.sync {
                network.get(
                    urlString: "ftp://x", successHandler: { (_: [String]) in XCTFail("succeeded") },
                    errorHandler: { _ in
                        ran.withLock { $0 = true }
                        done.fulfill()
                    })
                XCTAssertEqual(ran.withLock { $0 }, immediate, "immediate \(immediate)")
            }
            wait(for: [done], timeout: 5)
        }
    }
}
