import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// An `async` presenter's loading state, tested with held replies: the test waits for the request its
/// `Task` makes, and for each pushed event to be consumed, without polling or sleeping.
@MainActor
final class DummyAsyncPresenterTests: XCTestCase {
    private let network = DummyNetworkLayer(baseURL: URL(string: "https://api.example.com"))

    func testTheLoadingStateOfAnAsyncPresenter() async throws {
        network.holdsReplies = true
        let model = PeopleModel(network: network)
        let loading = Task { await model.load() }
        XCTAssertTrue(network.pendingRequests.isEmpty, "the model's task has not run yet")

        let next = await network.nextPendingRequest()
        let held = try XCTUnwrap(next)
        XCTAssertEqual(held.request.url.path, "/people")
        XCTAssertTrue(model.isLoading)
        XCTAssertNil(model.people)

        held.succeed(with: [Person(name: "Ann")])
        await loading.value
        XCTAssertFalse(model.isLoading)
        XCTAssertEqual(model.people, [Person(name: "Ann")])
    }

    func testARequestAlreadyHeldIsReturnedAndEachHeldRequestOnce() async throws {
        network.holdsReplies = true
        let first = Captured<[Person]>()
        let second = Captured<[Person]>()
        network.get(urlString: "/first", successHandler: first.success, errorHandler: first.failure)
        network.get(urlString: "/second", successHandler: second.success, errorHandler: second.failure)

        let one = await network.nextPendingRequest()
        let two = await network.nextPendingRequest()
        XCTAssertEqual(one?.request.url.path, "/first")
        XCTAssertEqual(two?.request.url.path, "/second")
        let none = await network.nextPendingRequest(timeout: 0.05)
        XCTAssertNil(none, "both were returned already")
        XCTAssertEqual(network.pendingRequests.count, 2, "returning one doesn't release it")
    }

    func testAReleasedRequestIsSkipped() async {
        network.holdsReplies = true
        let first = Captured<[Person]>()
        let second = Captured<[Person]>()
        network.get(urlString: "/first", successHandler: first.success, errorHandler: first.failure)
        network.get(urlString: "/second", successHandler: second.success, errorHandler: second.failure)
        network.pendingRequests[0].fail(with: "gone")

        let next = await network.nextPendingRequest()

        XCTAssertEqual(next?.request.url.path, "/second")
    }

    func testARetryIsHeldInItsTurnAndReturnedNext() async throws {
        let network = DummyNetworkLayer(
            baseURL: URL(string: "https://api.example.com"), retryPolicy: RetryPolicy(maximumAttempts: 2))
        network.holdsReplies = true
        let model = PeopleModel(network: network)
        let loading = Task { await model.load() }

        let first = await network.nextPendingRequest()
        try XCTUnwrap(first).fail(with: .unacceptableStatusCode(503, body: Data(), headers: [:]))
        let retry = await network.nextPendingRequest()
        try XCTUnwrap(retry).succeed(with: [Person(name: "Bo")])

        await loading.value
        XCTAssertEqual(model.people, [Person(name: "Bo")])
        XCTAssertEqual(network.recordedRequests.count, 2)
    }

    func testNoRequestHeldInTimeGivesNil() async {
        network.holdsReplies = true
        let next = await network.nextPendingRequest(timeout: 0.05)
        XCTAssertNil(next)
    }

    func testACancelledWaitGivesNilAtOnce() async {
        let waiting = Task { await network.nextPendingRequest(timeout: 60) }
        waiting.cancel()
        let next = await waiting.value
        XCTAssertNil(next)
    }

    func testResetKeepsAWaiterWaiting() async throws {
        network.holdsReplies = true
        let model = PeopleModel(network: network)
        network.reset()
        let loading = Task { await model.load() }
        let next = await network.nextPendingRequest()
        try XCTUnwrap(next).succeed(with: [Person(name: "Cy")])
        await loading.value
        XCTAssertEqual(model.people, [Person(name: "Cy")])
    }

    func testEachPushedEventIsConsumedByAnAsyncStreamBeforeTheTestGoesOn() async throws {
        network.holdsReplies = true
        let model = ChatModel(network: network)
        let asking = Task { await model.ask() }

        let next = await network.nextPendingRequest()
        let held = try XCTUnwrap(next)
        XCTAssertTrue(model.isTyping)
        XCTAssertEqual(model.answer, "")

        held.push(ServerSentEvent(data: "Hel"))
        let consumedFirst = await held.waitUntilConsumed()
        XCTAssertTrue(consumedFirst)
        XCTAssertEqual(model.answer, "Hel")

        held.push(ServerSentEvent(data: "lo"))
        held.push(ServerSentEvent(data: "!"))
        await held.waitUntilConsumed()
        XCTAssertEqual(model.answer, "Hello!")
        XCTAssertTrue(model.isTyping)

        held.finishStream()
        await asking.value
        XCTAssertFalse(model.isTyping)
    }

    func testAStreamThatStoppedIsConsumed() async throws {
        network.holdsReplies = true
        let model = ChatModel(network: network)
        let asking = Task { await model.ask() }
        let next = await network.nextPendingRequest()
        let held = try XCTUnwrap(next)
        held.push(ServerSentEvent(data: "Hi"))
        asking.cancel()
        await asking.value
        let consumed = await held.waitUntilConsumed(timeout: 5)
        XCTAssertTrue(consumed)
    }

    func testAPushToAHandlerOnTheDeliveryQueueIsConsumedOnceTheHandlerReturned() async throws {
        let queue = DispatchQueue(label: "delivery")
        let network = DummyNetworkLayer(deliveryQueue: queue)
        network.holdsReplies = true
        let received = Captured<ServerSentEvent>()
        network.stream(
            NetworkRequest(urlString: "https://api.example.com/chat"), as: .serverSentEvents,
            eventHandler: received.success, completionHandler: { _ in })
        let next = await network.nextPendingRequest()
        let held = try XCTUnwrap(next)
        // The queue is busy until the test lets it go: the event can't be delivered before.
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() }

        held.push(ServerSentEvent(data: "one"))
        XCTAssertEqual(received.count, 0)
        gate.signal()
        let consumed = await held.waitUntilConsumed()

        XCTAssertTrue(consumed)
        XCTAssertEqual(received.values.map(\.data), ["one"])
    }

    func testARequestThatIsNotAStreamIsConsumedAtOnce() async throws {
        network.holdsReplies = true
        let got = Captured<[Person]>()
        network.get(urlString: "/people", successHandler: got.success, errorHandler: got.failure)
        let next = await network.nextPendingRequest()
        let consumed = try await XCTUnwrap(next).waitUntilConsumed(timeout: 0)
        XCTAssertTrue(consumed)
    }
}

/// An `async` presenter of a list of people.
@MainActor
private final class PeopleModel {
    private let network: NetworkLayer
    private(set) var isLoading = false
    private(set) var people: [Person]?
    private(set) var error: NetworkError?

    init(network: NetworkLayer) {
        self.network = network
    }

    func load() async {
        isLoading = true
        defer { isLoading = false }
        do throws(NetworkError) {
            people = try await network.get(urlString: "/people")
        } catch {
            self.error = error
        }
    }
}

/// An `async` presenter of a streamed chat answer.
@MainActor
private final class ChatModel {
    private let network: NetworkLayer
    private(set) var isTyping = false
    private(set) var answer = ""

    init(network: NetworkLayer) {
        self.network = network
    }

    func ask() async {
        isTyping = true
        defer { isTyping = false }
        do {
            let stream = network.stream(NetworkRequest(urlString: "/chat"), as: .serverSentEvents)
            for try await event in stream { answer += event.data }
        } catch {
            answer += " (failed)"
        }
    }
}
