import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// `holdsReplies`: requests wait in `pendingRequests` until the test releases or cancels them.
final class DummyHeldRepliesTests: XCTestCase {
    private let ann = Person(name: "Ann")
    private let bo = Person(name: "Bo", age: 40)
    // Each request held on its own: identical requests would share one held request (see
    // DummySharingTests).
    private let network = DummyNetworkLayer(
        baseURL: URL(string: "https://api.example.com"), scheduling: .disabled)

    @discardableResult
    private func get(_ got: Captured<[Person]>, _ path: String = "/people") -> NetworkTask {
        network.get(urlString: path, successHandler: got.success, errorHandler: got.failure)
    }

    func testAHeldRequestIsRecordedAndWaits() {
        network.holdsReplies = true
        network.successResponse = [ann]
        let got = Captured<[Person]>()
        get(got)
        XCTAssertEqual(got.count, 0, "no handler ran")
        XCTAssertEqual(network.recordedRequests.map(\.url.path), ["/people"])
        XCTAssertEqual(network.pendingRequests.map(\.request.url.path), ["/people"])
        XCTAssertEqual(network.pendingRequests.first?.description, "held GET https://api.example.com/people")
    }

    func testSucceedRunsTheHandlerBeforeReturningAndLeavesTheList() {
        network.holdsReplies = true
        let got = Captured<[Person]>()
        get(got)
        let held = network.pendingRequests[0]
        held.succeed(with: [ann, bo])
        XCTAssertEqual(got.values, [[ann, bo]])
        XCTAssertTrue(network.pendingRequests.isEmpty)
        held.succeed(with: [bo])
        held.fail(with: "again")
        XCTAssertEqual(got.count, 1, "only the first release counts")
    }

    func testFailGivesTheError() {
        network.holdsReplies = true
        let got = Captured<[Person]>()
        get(got)
        network.pendingRequests[0].fail(with: .unacceptableStatusCode(503, body: Data(), headers: [:]))
        XCTAssertEqual(got.errors.first?.statusCode, 503)
    }

    func testSucceedWithTheWrongTypeNamesBothTypes() {
        network.holdsReplies = true
        let got = Captured<[Person]>()
        get(got)
        network.pendingRequests[0].succeed(with: ann)
        let message = got.errors.first?.message ?? ""
        XCTAssertTrue(message.contains("expects Array<Person>, but it was released with Person"), message)
    }

    func testSucceedWithDataDecodesWithTheLayersDecoder() {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let network = DummyNetworkLayer(decoder: decoder)
        network.holdsReplies = true
        let got = Captured<Shift>()
        network.get(urlString: "https://x.test/shift", successHandler: got.success, errorHandler: got.failure)
        network.pendingRequests[0].succeed(with: Data(#"{"starts_at":"9:00"}"#.utf8))
        XCTAssertEqual(got.values, [Shift(startsAt: "9:00")])
    }

    func testRespondAnswersFromTheStubsAsTheyAreWhenReleased() {
        network.holdsReplies = true
        let first = Captured<[Person]>()
        let second = Captured<[Person]>()
        get(first)
        get(second)
        network.stub(.get, "/people", outcomes: [.success([ann]), .failure("offline")])
        network.pendingRequests[1].respond()
        network.pendingRequests[0].respond()
        XCTAssertEqual(second.values, [[ann]], "released first, so it takes the first outcome")
        XCTAssertEqual(first.errors.first?.message, "offline")
    }

    func testRespondUsesTheLayerWideResponses() {
        network.holdsReplies = true
        let got = Captured<[Person]>()
        get(got)
        network.successResponse = [bo]
        network.pendingRequests[0].respond()
        XCTAssertEqual(got.values, [[bo]])
    }

    func testCancellingAHeldRequestDeliversCancelledAtOnceAndReleasingDoesNothing() throws {
        network.holdsReplies = true
        let got = Captured<[Person]>()
        var pendingWhenCancelled: Int?
        got.onHandler = { pendingWhenCancelled = self.network.pendingRequests.count }
        let task = get(got)
        let held = try XCTUnwrap(network.pendingRequests.first)
        task.cancel()
        XCTAssertEqual(got.errorDescriptions, ["cancelled"])
        XCTAssertEqual(pendingWhenCancelled, 0, "the request left the list before its handler ran")
        XCTAssertEqual(network.cancelledRequests.map(\.url.path), ["/people"])
        held.succeed(with: [ann])
        held.respond()
        task.cancel()
        XCTAssertEqual(got.count, 1)
        XCTAssertEqual((task as? DummyTask)?.cancelCount, 2)
    }

    func testVoidFormsAreHeldToo() {
        network.holdsReplies = true
        let got = Captured<Void>()
        network.post(
            urlString: "/people", body: ann, successHandler: { got.success(()) }, errorHandler: got.failure)
        network.delete(urlString: "/people/1", successHandler: { got.success(()) }, errorHandler: got.failure)
        XCTAssertEqual(network.pendingRequests.map(\.request.method), [.post, .delete])
        XCTAssertEqual(try network.pendingRequests[0].request.decodedBody(as: Person.self), ann)
        network.pendingRequests[1].succeed(with: EmptyResponse())
        network.pendingRequests[0].respond()
        XCTAssertEqual(got.successCount, 2)
    }

    func testARefusedRequestIsNeverHeld() {
        network.holdsReplies = true
        let got = Captured<[Person]>()
        network.get(
            urlString: "/people", headers: ["Bad\nName": "x"], successHandler: got.success,
            errorHandler: got.failure)
        XCTAssertEqual(got.errorDescriptions, [#"invalidHeader("Bad\nName")"#])
        XCTAssertTrue(network.pendingRequests.isEmpty)
        XCTAssertEqual(network.refusedRequests.count, 1)
    }

    func testHoldingAppliesToRequestsMadeWhileItIsOn() {
        network.successResponse = [ann]
        network.holdsReplies = true
        let held = Captured<[Person]>()
        get(held)
        network.holdsReplies = false
        let answered = Captured<[Person]>()
        get(answered)
        XCTAssertEqual(answered.values, [[ann]])
        XCTAssertEqual(held.count, 0)
        XCTAssertEqual(network.pendingRequests.count, 1)
        network.pendingRequests[0].respond()
        XCTAssertEqual(held.values, [[ann]])
    }

    func testResetKeepsHeldRequestsAndTheMode() {
        network.holdsReplies = true
        let got = Captured<[Person]>()
        get(got)
        network.reset()
        XCTAssertTrue(network.holdsReplies)
        XCTAssertEqual(network.pendingRequests.count, 1)
        XCTAssertTrue(network.recordedRequests.isEmpty)
        network.pendingRequests[0].fail(with: "after reset")
        XCTAssertEqual(got.errors.first?.message, "after reset")
    }

    func testWithADeliveryQueueReleasingAndCancellingDeliverOnIt() throws {
        let queue = DispatchQueue(label: "held.delivery")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        network.deliveryQueue = queue
        network.holdsReplies = true
        let released = Captured<[Person]>()
        let cancelled = Captured<[Person]>()
        let delivered = expectation(description: "both delivered")
        delivered.expectedFulfillmentCount = 2
        var onQueue: [Bool] = []
        released.onHandler = {
            onQueue.append(DispatchQueue.getSpecific(key: key) == true)
            delivered.fulfill()
        }
        cancelled.onHandler = released.onHandler
        get(released)
        let task = get(cancelled)
        queue.suspend()
        network.pendingRequests[0].succeed(with: [ann])
        task.cancel()
        XCTAssertEqual(released.count + cancelled.count, 0, "nothing runs on the releasing thread")
        queue.resume()
        wait(for: [delivered], timeout: 5)
        XCTAssertEqual(onQueue, [true, true])
        XCTAssertEqual(released.values, [[ann]])
        XCTAssertEqual(cancelled.errorDescriptions, ["cancelled"])
    }

    func testReleaseAndCancelRacingFromManyThreadsDeliverExactlyOnce() {
        network.holdsReplies = true
        network.successResponse = [ann]
        let captures = (0..<200).map { _ in Captured<[Person]>() }
        let tasks = captures.map { get($0) }
        let pending = network.pendingRequests
        XCTAssertEqual(pending.count, 200)
        DispatchQueue.concurrentPerform(iterations: 400) { index in
            if index.isMultiple(of: 2) {
                pending[index / 2].respond()
            } else {
                tasks[index / 2].cancel()
            }
        }
        XCTAssertEqual(captures.map(\.count), Array(repeating: 1, count: 200))
        XCTAssertTrue(network.pendingRequests.isEmpty)
        let cancelled = captures.filter { !$0.errors.isEmpty }.count
        XCTAssertEqual(network.cancelledRequests.count, 200, "every task was cancelled, before or after")
        XCTAssertEqual(captures.filter { !$0.values.isEmpty }.count + cancelled, 200)
    }

    func testAHeldRequestDoesNotKeepItsLayerAlive() throws {
        weak var weakLayer: DummyNetworkLayer?
        var held: DummyPendingRequest?
        let got = Captured<[Person]>()
        do {
            let network = DummyNetworkLayer()
            network.holdsReplies = true
            network.get(urlString: "https://x.test/p", successHandler: got.success, errorHandler: got.failure)
            held = network.pendingRequests.first
            weakLayer = network
        }
        XCTAssertNil(weakLayer, "pending requests do not keep their layer alive")
        held?.respond()
        let message = got.errors.first?.message ?? ""
        XCTAssertTrue(message.contains("its DummyNetworkLayer is gone"), message)
    }
}

private struct Shift: Decodable, Equatable {
    let startsAt: String
}
