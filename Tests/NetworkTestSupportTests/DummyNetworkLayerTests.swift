import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

final class DummyNetworkLayerTests: XCTestCase {
    private let ann = Person(name: "Ann")
    private let bo = Person(name: "Bo", age: 40)

    // MARK: - The seed's shape

    func testSuccessResponseAnswersSynchronouslyBeforeTheMethodReturns() {
        let network = DummyNetworkLayer()
        network.successResponse = [ann]
        let got = Captured<[Person]>()
        network.get(
            urlString: "https://api.example.com/people", successHandler: got.success,
            errorHandler: got.failure)
        XCTAssertEqual(got.values, [[ann]])
        XCTAssertTrue(got.errors.isEmpty)
    }

    func testErrorResponseFromAStringLiteral() {
        let network = DummyNetworkLayer()
        network.errorResponse = "Unable to parse response"
        let got = Captured<[Person]>()
        network.get(
            urlString: "https://api.example.com/people", successHandler: got.success,
            errorHandler: got.failure)
        XCTAssertEqual(got.errorDescriptions, [#"custom("Unable to parse response")"#])
        XCTAssertEqual(got.errors.first?.message, "Unable to parse response")
    }

    func testASuccessResponseOfTheWrongTypeFailsWithAMessageNamingBothTypes() {
        let network = DummyNetworkLayer()
        network.successResponse = "Ann"
        let got = Captured<[Person]>()
        network.get(
            urlString: "https://api.example.com/people", successHandler: got.success,
            errorHandler: got.failure)
        let message = got.errors.first?.message ?? ""
        XCTAssertTrue(message.contains("GET https://api.example.com/people"), message)
        XCTAssertTrue(message.contains("expects Array<Person>"), message)
        XCTAssertTrue(message.contains("successResponse is String"), message)
    }

    func testTypesWithTheSameShortNameAreNamedInFull() {
        let network = DummyNetworkLayer()
        network.successResponse = Twins.First.Item()
        let got = Captured<Twins.Second.Item>()
        network.get(
            urlString: "https://api.example.com/x", successHandler: got.success, errorHandler: got.failure)
        let message = got.errors.first?.message ?? ""
        XCTAssertTrue(message.contains("expects NetworkTestSupportTests.Twins.Second.Item"), message)
        XCTAssertTrue(
            message.contains("successResponse is NetworkTestSupportTests.Twins.First.Item"), message)
    }

    func testNothingStubbedFailsWithAMessageSayingSoAndListingTheStubs() {
        let network = DummyNetworkLayer()
        let got = Captured<Person>()
        network.get(
            urlString: "https://api.example.com/p", successHandler: got.success, errorHandler: got.failure)
        let message = got.errors.first?.message ?? ""
        XCTAssertTrue(message.contains("expects Person, but nothing was stubbed"), message)

        network.stub(.get, "https://api.example.com/other", returning: ann)
        network.get(
            urlString: "https://api.example.com/p", successHandler: got.success, errorHandler: got.failure)
        let second = got.errors.last?.message ?? ""
        XCTAssertTrue(second.contains("Stubs: GET https://api.example.com/other"), second)
    }

    func testPrecedenceOfSuccessResponseAndErrorResponse() {
        let network = DummyNetworkLayer()
        network.successResponse = ann
        network.errorResponse = "failed"
        let typed = Captured<Person>()
        network.get(
            urlString: "https://a.example.com/", successHandler: typed.success, errorHandler: typed.failure)
        XCTAssertEqual(typed.values, [ann], "a successResponse of the expected type wins")

        let otherType = Captured<[Person]>()
        network.get(
            urlString: "https://a.example.com/", successHandler: otherType.success,
            errorHandler: otherType.failure)
        XCTAssertEqual(otherType.errorDescriptions, [#"custom("failed")"#], "else errorResponse")

        let void = Captured<Void>()
        network.post(
            urlString: "https://a.example.com/", body: ann, successHandler: { void.success(()) },
            errorHandler: void.failure)
        XCTAssertEqual(
            void.errorDescriptions, [#"custom("failed")"#], "() -> Void fails when errorResponse is set")

        network.errorResponse = nil
        network.delete(
            urlString: "https://a.example.com/", successHandler: { void.success(()) },
            errorHandler: void.failure)
        XCTAssertEqual(void.successCount, 1, "() -> Void succeeds otherwise")
        network.successResponse = nil
        network.put(
            urlString: "https://a.example.com/", body: ann, successHandler: { void.success(()) },
            errorHandler: void.failure)
        XCTAssertEqual(void.successCount, 2, "() -> Void needs no successResponse")
    }

    // MARK: - Every request method

    func testAllNineMethodsAreOverriddenAndRecordedInOrder() {
        let dummy = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        dummy.successResponse = bo
        let network: NetworkLayer = dummy  // dynamic dispatch: what a presenter holding a NetworkLayer gets
        let typed = Captured<Person>()
        let void = Captured<Void>()
        let done = { void.success(()) }
        network.get(
            urlString: "/p", query: ["q": "1"], headers: ["X": "1"], successHandler: typed.success,
            errorHandler: typed.failure)
        network.post(urlString: "/p", body: ann, successHandler: typed.success, errorHandler: typed.failure)
        network.post(urlString: "/p", body: ann, successHandler: done, errorHandler: void.failure)
        network.put(urlString: "/p", body: ann, successHandler: typed.success, errorHandler: typed.failure)
        network.put(urlString: "/p", body: ann, successHandler: done, errorHandler: void.failure)
        network.patch(urlString: "/p", body: ann, successHandler: typed.success, errorHandler: typed.failure)
        network.patch(urlString: "/p", body: ann, successHandler: done, errorHandler: void.failure)
        network.delete(urlString: "/p", successHandler: typed.success, errorHandler: typed.failure)
        network.delete(urlString: "/p", successHandler: done, errorHandler: void.failure)

        XCTAssertEqual(typed.values, Array(repeating: bo, count: 5))
        XCTAssertEqual(void.successCount, 4)
        let sent = dummy.recordedRequests
        XCTAssertEqual(
            sent.map(\.method), [.get, .post, .post, .put, .put, .patch, .patch, .delete, .delete])
        XCTAssertEqual(sent.first?.url.absoluteString, "https://api.example.com/p?q=1")
        XCTAssertEqual(sent.first?.header("x"), "1")
        XCTAssertEqual(
            sent.map { $0.body != nil }, [false, true, true, true, true, true, true, false, false])
        XCTAssertEqual(
            try sent[1...6].map { try $0.decodedBody(as: Person.self) }, Array(repeating: ann, count: 6))

        // The same calls through the dummy's own type: default arguments and @discardableResult repeated.
        dummy.get(urlString: "/p", successHandler: typed.success, errorHandler: typed.failure)
        dummy.post(urlString: "/p", body: ann, successHandler: typed.success, errorHandler: typed.failure)
        dummy.post(urlString: "/p", body: ann, successHandler: done, errorHandler: void.failure)
        dummy.put(urlString: "/p", body: ann, successHandler: typed.success, errorHandler: typed.failure)
        dummy.put(urlString: "/p", body: ann, successHandler: done, errorHandler: void.failure)
        dummy.patch(urlString: "/p", body: ann, successHandler: typed.success, errorHandler: typed.failure)
        dummy.patch(urlString: "/p", body: ann, successHandler: done, errorHandler: void.failure)
        dummy.delete(urlString: "/p", successHandler: typed.success, errorHandler: typed.failure)
        dummy.delete(urlString: "/p", successHandler: done, errorHandler: void.failure)
        XCTAssertEqual(typed.values.count, 10)
        XCTAssertEqual(void.successCount, 8)
        XCTAssertEqual(dummy.recordedRequests.count, 18)
    }

    func testHandlersMayCallTheLayerAgain() {
        let network = DummyNetworkLayer()
        network.successResponse = ann
        let inner = Captured<Person>()
        network.get(
            urlString: "https://a.example.com/1",
            successHandler: { (_: Person) in
                network.get(
                    urlString: "https://a.example.com/2", successHandler: inner.success,
                    errorHandler: inner.failure)
            }, errorHandler: { XCTFail("\($0)") })
        XCTAssertEqual(inner.values, [ann])
        XCTAssertEqual(network.recordedRequests.count, 2)
    }

    // MARK: - Per-request stubs

    func testPerRequestStubsTakePrecedenceOverTheLayerWideResponses() {
        let network = DummyNetworkLayer()
        network.successResponse = [ann]
        network.errorResponse = "layer-wide"
        network.stub(.get, "https://api.example.com/employees", returning: [bo])
        let got = Captured<[Person]>()
        network.get(
            urlString: "https://api.example.com/employees", successHandler: got.success,
            errorHandler: got.failure)
        network.get(
            urlString: "https://api.example.com/others", successHandler: got.success,
            errorHandler: got.failure)
        XCTAssertEqual(got.values, [[bo], [ann]])
    }

    func testStubFailingWithAnError() {
        let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))
        network.successResponse = ann
        network.stub(
            .post, "/employees", failingWith: .unacceptableStatusCode(500, body: Data(), headers: [:]))
        let got = Captured<Void>()
        network.post(
            urlString: "employees", body: ann, successHandler: { got.success(()) }, errorHandler: got.failure)
        XCTAssertEqual(got.errors.map(\.statusCode), [500])
    }

    func testAStubOfTheWrongTypeFailsWithAMessageNamingBothTypes() {
        let network = DummyNetworkLayer()
        network.successResponse = ann
        network.stub(.get, "https://api.example.com/p", returning: 42)
        let got = Captured<Person>()
        network.get(
            urlString: "https://api.example.com/p", successHandler: got.success, errorHandler: got.failure)
        let message = got.errors.first?.message ?? ""
        XCTAssertTrue(
            message.contains("expects Person, but the stub GET https://api.example.com/p returned Int"),
            message)
    }

    func testOutcomesAreUsedInOrderThenTheLastRepeats() {
        let network = DummyNetworkLayer()
        network.stub(.get, "https://api.example.com/flaky", outcomes: [.failure("offline"), .success(bo)])
        let got = Captured<Person>()
        for _ in 0..<3 {
            network.get(
                urlString: "https://api.example.com/flaky", successHandler: got.success,
                errorHandler: got.failure)
        }
        XCTAssertEqual(got.errorDescriptions, [#"custom("offline")"#])
        XCTAssertEqual(got.values, [bo, bo])
    }

    func testAStubWithNoOutcomesSaysSo() {
        let network = DummyNetworkLayer()
        network.stub(.get, "https://api.example.com/p", outcomes: [])
        let got = Captured<Person>()
        network.get(
            urlString: "https://api.example.com/p", successHandler: got.success, errorHandler: got.failure)
        XCTAssertTrue(got.errors.first?.message.contains("was given no outcomes") == true)
    }

    func testTheMostRecentMatchingStubWinsAndMethodsMustMatch() {
        let network = DummyNetworkLayer()
        network.stub(.get, "https://api.example.com/p", returning: ann)
        network.stub(.get, "https://api.example.com/p", returning: bo)
        network.stub(.post, "https://api.example.com/p", failingWith: "not for GET")
        let got = Captured<Person>()
        network.get(
            urlString: "https://api.example.com/p", successHandler: got.success, errorHandler: got.failure)
        XCTAssertEqual(got.values, [bo])
        XCTAssertTrue(got.errors.isEmpty)
    }

    func testAVoidRequestSucceedsWithAnySuccessOutcome() {
        let network = DummyNetworkLayer()
        network.stub(.delete, "https://api.example.com/p", returning: EmptyResponse())
        let got = Captured<Void>()
        network.delete(
            urlString: "https://api.example.com/p", successHandler: { got.success(()) },
            errorHandler: got.failure)
        XCTAssertEqual(got.successCount, 1)
    }

    func testARequestExpectingEmptyResponseIsAnsweredLikeAVoidOne() {
        let network = DummyNetworkLayer()
        let got = Captured<EmptyResponse>()
        network.delete(
            urlString: "https://api.example.com/p", successHandler: got.success, errorHandler: got.failure)
        network.stub(.delete, "https://api.example.com/p", returning: "anything")
        network.delete(
            urlString: "https://api.example.com/p", successHandler: got.success, errorHandler: got.failure)
        network.errorResponse = "gone"
        network.delete(
            urlString: "https://api.example.com/q", successHandler: got.success, errorHandler: got.failure)
        XCTAssertEqual(got.values, [EmptyResponse(), EmptyResponse()])
        XCTAssertEqual(got.errorDescriptions, [#"custom("gone")"#])
    }

    // MARK: - Delivery and cancellation

    func testDeliveryQueueDeliversAsynchronouslyOnThatQueue() {
        let key = DispatchSpecificKey<String>()
        let queue = DispatchQueue(label: "dummy.delivery")
        queue.setSpecific(key: key, value: "delivery")
        let network = DummyNetworkLayer(deliveryQueue: queue)
        network.successResponse = ann
        let got = Captured<Person>()
        let delivered = expectation(description: "delivered")
        let onQueue = Captured<String?>()
        got.onHandler = {
            onQueue.success(DispatchQueue.getSpecific(key: key))
            delivered.fulfill()
        }
        queue.sync {  // hold the queue so the delivery cannot start before the method returns
            network.get(
                urlString: "https://a.example.com/", successHandler: got.success, errorHandler: got.failure)
            got.markReturned()
        }
        wait(for: [delivered], timeout: 5)
        XCTAssertEqual(got.values, [ann])
        XCTAssertFalse(got.ranBeforeReturn)
        XCTAssertEqual(onQueue.values, ["delivery"])
    }

    func testCancelIsRecordedOnTheTaskAndTheLayer() {
        let network = DummyNetworkLayer()
        network.successResponse = ann
        let got = Captured<Person>()
        let task = network.get(
            urlString: "https://a.example.com/", successHandler: got.success, errorHandler: got.failure)
        let dummyTask = task as? DummyTask
        XCTAssertEqual(dummyTask?.isCancelled, false)
        task.cancel()
        task.cancel()
        XCTAssertEqual(dummyTask?.cancelCount, 2)
        XCTAssertEqual(dummyTask?.request?.url.absoluteString, "https://a.example.com/")
        XCTAssertEqual(network.cancelledRequests.map(\.url.absoluteString), ["https://a.example.com/"])
        XCTAssertEqual(got.values, [ann], "delivered synchronously before the cancel: nothing more")
        XCTAssertTrue(got.errors.isEmpty)
    }

    func testACancelledAsynchronousDeliveryDeliversCancelledOnceAndNeverSuccess() {
        let network = DummyNetworkLayer(deliveryQueue: .main)
        network.successResponse = ann
        let got = Captured<Person>()
        let delivered = expectation(description: "delivered")
        got.onHandler = { delivered.fulfill() }
        // This test runs on the main queue, so nothing is delivered until it waits.
        let task = network.get(
            urlString: "https://a.example.com/", successHandler: got.success, errorHandler: got.failure)
        task.cancel()
        task.cancel()
        wait(for: [delivered], timeout: 5)
        let drained = expectation(description: "main queue drained")
        DispatchQueue.main.async { drained.fulfill() }
        wait(for: [drained], timeout: 5)
        XCTAssertTrue(got.values.isEmpty)
        XCTAssertEqual(got.errorDescriptions, ["cancelled"])
        XCTAssertEqual(network.cancelledRequests.count, 1)
    }

    // MARK: - Reset

    func testResetClearsResponsesStubsAndRecordingsButKeepsTheDeliveryQueue() {
        let queue = DispatchQueue(label: "kept")
        let network = DummyNetworkLayer(deliveryQueue: queue)
        network.deliveryQueue = nil
        network.successResponse = ann
        network.errorResponse = "e"
        network.stub(.get, "https://a.example.com/s", returning: bo)
        let got = Captured<Person>()
        network.get(
            urlString: "https://a.example.com/s", successHandler: got.success, errorHandler: got.failure)
        network.get(urlString: "not a url", successHandler: got.success, errorHandler: got.failure)
        network.get(
            urlString: "https://a.example.com/s", successHandler: got.success, errorHandler: got.failure
        ).cancel()
        XCTAssertEqual(network.recordedRequests.count, 2)
        XCTAssertEqual(network.refusedRequests.count, 1)
        XCTAssertEqual(network.cancelledRequests.count, 1)

        network.deliveryQueue = queue
        network.reset()
        XCTAssertNil(network.successResponse)
        XCTAssertNil(network.errorResponse)
        XCTAssertTrue(network.recordedRequests.isEmpty)
        XCTAssertTrue(network.refusedRequests.isEmpty)
        XCTAssertTrue(network.cancelledRequests.isEmpty)
        XCTAssertEqual(network.deliveryQueue?.label, "kept")

        network.deliveryQueue = nil
        let after = Captured<Person>()
        network.get(
            urlString: "https://a.example.com/s", successHandler: after.success, errorHandler: after.failure)
        XCTAssertTrue(after.errors.first?.message.contains("nothing was stubbed") == true, "the stub is gone")
    }
}

/// Two types whose short names are the same.
enum Twins {
    enum First {
        struct Item: Codable {}
    }
    enum Second {
        struct Item: Codable {}
    }
}
