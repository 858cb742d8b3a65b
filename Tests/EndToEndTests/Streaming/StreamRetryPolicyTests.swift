import Foundation
import NetworkLayer
import NetworkTestSupport
import XCTest

/// A reconnecting stream's floor bounds its reconnections only: before the first element, its failures
/// are retried by the retry policy as given, and a `progressHandler` (meant for transfers) changes
/// nothing about where and when its handlers run.
final class StreamRetryPolicyTests: XCTestCase {
    private func retryDelays(_ recorder: EventRecorder) -> [TimeInterval] {
        recorder.events.compactMap { event -> TimeInterval? in
            if case .retry(_, let delay, _) = event { return delay }
            return nil
        }
    }

    /// A policy whose `maximumDelay` is zero retries a 503 at once, also for a stream whose reconnection
    /// floor is longer.
    func testAFailureBeforeTheFirstElementIsRetriedWithThePolicysOwnLongestWait() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 503))
        server.enqueue(MockResponse(status: 204))
        let recorder = EventRecorder()
        let network = NetworkLayer(
            baseURL: server.baseURL, retryPolicy: RetryPolicy(maximumAttempts: 3, maximumDelay: 0),
            monitors: [recorder])
        let finished = recorder.expectFinishes(1, self)
        let options = ServerSentEventsOptions(minimumReconnectionDelay: 0.2)

        let recording = record(
            network, NetworkRequest(urlString: "feed"), as: .serverSentEvents, options: options)
        wait(for: [finished], timeout: 5)

        XCTAssertEqual(try recording.outcome?.get().statusCode, 204)
        XCTAssertEqual(retryDelays(recorder), [0], "the policy's maximumDelay of zero means no wait")
    }

    /// A `Retry-After` beyond the policy's `maximumDelay` means no retry (see ``RetryPolicy``), whatever
    /// the stream's reconnection floor.
    func testARetryAfterBeyondThePolicysMaximumDelayIsNoRetryForAStream() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(MockResponse(status: 503, headers: ["Retry-After": "1"]))
        server.enqueue(MockResponse(status: 204))
        let network = NetworkLayer(
            baseURL: server.baseURL, retryPolicy: RetryPolicy(maximumAttempts: 3, maximumDelay: 0.5))
        let options = ServerSentEventsOptions(minimumReconnectionDelay: 5)

        let recording = record(
            network, NetworkRequest(urlString: "feed"), as: .serverSentEvents, options: options)

        guard case .failure(.unacceptableStatusCode(503, _, _)) = recording.outcome else {
            return XCTFail("\(String(describing: recording.outcome))")
        }
        XCTAssertEqual(server.requestCount, 1)
    }

    /// A stream whose request has a `progressHandler` still completes after its last element, on a
    /// concurrent callback queue: the completion doesn't overtake (and drop) elements still queued.
    func testAProgressHandlerOnAStreamsRequestLeavesItsCompletionBehindItsElements() throws {
        let server = try MockServer.started(in: self)
        server.enqueue(
            .serverSentEvents([
                ServerSentEvent(data: "a"), ServerSentEvent(data: "b"), ServerSentEvent(data: "c"),
            ]))
        let network = NetworkLayer(baseURL: server.baseURL, callbackQueue: .global())
        var request = NetworkRequest<Data>(urlString: "feed")
        request.progressHandler = { _ in }
        let completed = DispatchSemaphore(value: 0)
        let done = expectation(description: "completed")
        let elements = Locked<[String]>([])
        let elementsAtCompletion = Locked<[String]?>(nil)
        network.stream(
            request, as: .serverSentEvents, options: ServerSentEventsOptions(reconnects: false),
            eventHandler: { event in
                let isFirst = elements.withLock {
                    $0.append(event.data)
                    return $0.count == 1
                }
                // Holds the stream's queue: a completion that waits for it never signals in time.
                if isFirst { _ = completed.wait(timeout: .now() + 1) }
            },
            completionHandler: { _ in
                elementsAtCompletion.withLock { $0 = elements.withLock { $0 } }
                completed.signal()
                done.fulfill()
            })
        wait(for: [done], timeout: 10)

        XCTAssertEqual(elementsAtCompletion.withLock { $0 }, ["a", "b", "c"])
    }
}
